"""A snapshot holds the table state as the fold of its version makes it; `verify` compares it with
the state the events give, and the table starts from the newest one of its version. A state that
gains or loses a field without a new VERSION would make every journal written before look altered
("the snapshot taken after it differs"): the layout is pinned here with its version, on purpose."""
import dataclasses
import json

from croupier.table.state import INITIAL, VERSION, TableState, encode_state

LAYOUT = {
    5: ["phase", "profile", "rules", "minimum", "sign", "sensor_only", "relief_minutes", "posted_values", "value_only",
        "marked_values", "colours", "balls", "ball_in_play", "ball_since", "staff", "on_duty", "spin", "launch",
        "last_direction", "countdown_until", "bets_opened_at", "pending", "last_void", "recent", "counted", "voids",
        "corrections", "accounts", "waiting", "bets", "prison", "played", "alarms", "wrong_pins", "next_alarm",
        "last_event_time"],
    6: ["phase", "profile", "table_id", "rules", "minimum", "sign", "sensor_only", "relief_minutes", "posted_values",
        "value_only", "marked_values", "colours", "balls", "ball_in_play", "ball_since", "staff", "on_duty", "spin",
        "launch", "last_direction", "countdown_until", "bets_opened_at", "pending", "last_void", "recent", "counted",
        "voids", "corrections", "accounts", "waiting", "bets", "prison", "played", "alarms", "wrong_pins",
        "next_alarm", "last_event_time"],
    7: ["phase", "profile", "table_id", "rules", "minimum", "sign", "sensor_only", "relief_minutes", "posted_values",
        "value_only", "marked_values", "colours", "balls", "ball_in_play", "ball_since", "staff", "on_duty", "spin",
        "launch", "last_direction", "countdown_until", "bets_opened_at", "pending", "last_void", "recent", "counted",
        "voids", "corrections", "accounts", "waiting", "bets", "prison", "played", "alarms", "wrong_pins",
        "pin_waits", "next_alarm", "last_event_time"],
    8: ["phase", "profile", "table_id", "rules", "minimum", "sign", "sensor_only", "relief_minutes", "posted_values",
        "value_only", "marked_values", "colours", "balls", "ball_in_play", "ball_since", "staff", "on_duty", "spin",
        "launch", "last_direction", "countdown_until", "bets_opened_at", "pending", "last_void", "recent", "counted",
        "voids", "corrections", "accounts", "given", "waiting", "bets", "prison", "played", "alarms", "wrong_pins",
        "pin_waits", "next_alarm", "last_event_time"],
    11: ["phase", "profile", "table_id", "currency", "time_zone", "rules", "minimum", "sign", "sensor_only",
         "relief_minutes", "posted_values", "value_only", "marked_values", "colours", "balls", "ball_in_play",
         "ball_since", "staff", "on_duty", "spin", "launch", "last_direction", "countdown_until", "bets_opened_at",
         "pending", "last_void", "recent", "counted", "voids", "corrections", "accounts", "given", "waiting", "bets",
         "prison", "played", "alarms", "wrong_pins", "pin_waits", "next_alarm", "last_event_time"],
}
LAYOUT[9] = LAYOUT[8]  # a counted spin holds what its corrections leave to recover
LAYOUT[10] = LAYOUT[8]  # a relief and a ball swap end the overdue alarms they answer
LAYOUT[12] = [*LAYOUT[11][:5], "money_moved", *LAYOUT[11][5:]]  # a shift's currency is fixed once money moves


def test_the_snapshot_layout_changes_only_with_a_new_version():
    fields = [field.name for field in dataclasses.fields(TableState)]
    assert fields == LAYOUT.get(VERSION), (
        "the table state's fields changed: raise VERSION in croupier/table/state.py (older snapshots are then "
        "refolded, not compared) and pin the new layout here")
    assert sorted(json.loads(encode_state(INITIAL))) == sorted(fields)
