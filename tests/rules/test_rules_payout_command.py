"""`croupier payout`: its contract in text and JSON, and its refusals."""
import json
import subprocess
import sys

import pytest

from croupier.commands.payout import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys, *argv) -> dict:
    code, out, err = run(capsys, "--json", *argv)
    assert code == 0, err
    return json.loads(out)


def test_json_echoes_every_bet_verbatim_with_its_figures(capsys):
    result = as_json(capsys, "--profile", "pt-americana", "--number", "17",
                     "complete:17", "orphelinsx5@red", "14/17x2@blue", "dozen1+2@value", "2")
    assert (result["number"], result["profile"]) == (17, "pt-americana")
    lines = {line["input"]: line for line in result["lines"]}
    assert [line["input"] for line in result["lines"]] == [
        "complete:17", "orphelinsx5@red", "14/17x2@blue", "dozen1+2@value", "2"]
    assert (lines["complete:17"]["stake"], lines["complete:17"]["won"]) == (40, 392)
    assert lines["complete:17"]["category"] == "complete" and lines["complete:17"]["owner"] is None
    assert (lines["orphelinsx5@red"]["won"], lines["orphelinsx5@red"]["kept"]) == (170, 10)
    split = lines["14/17x2@blue"]
    assert (split["won"], split["kept"], split["imprisoned"], split["owner"], split["category"]) == (
        34, 2, 0, "blue", "splits")
    assert lines["dozen1+2@value"]["won"] == 0.5 and lines["dozen1+2@value"]["category"] == "dozens"
    assert (lines["2"]["won"], lines["2"]["kept"]) == (0, 0)


def test_value_marked_chips_on_a_plein_are_paid_in_money(capsys):
    # PT-A 16: 10 EUR of value-marked chips on plein 17 are paid 35 x 10 = 350 EUR; plain value chips are refused there.
    (line,) = as_json(capsys, "--profile", "pt-americana", "--number", "17", "17x10@value-marked")["lines"]
    assert (line["won"], line["kept"], line["owner"], line["category"]) == (350, 10, "value", "pleins")
    code, _, err = run(capsys, "--profile", "pt-americana", "--number", "17", "17x10@value")
    assert code == 2 and "value chips may not be played on pleins" in err


def test_json_writes_exact_halves_as_point_five(capsys):
    code, out, _ = run(capsys, "--json", "--profile", "ru-american", "--number", "0", "redx3")
    assert code == 0 and '"kept": 1.5' in out


def test_json_shows_the_chip_put_en_prison(capsys):
    line = as_json(capsys, "--profile", "mt-fair", "--number", "0", "evenx3@blue")["lines"][0]
    assert (line["kept"], line["imprisoned"], line["won"]) == (1, 1, 0)


def test_json_places_losers_first_then_the_payout_order(capsys):
    result = as_json(capsys, "--profile", "pt-americana", "--number", "17", "17", "dozen2",
                     "red", "odd", "column2")
    order = {line["input"]: line["order"] for line in result["lines"]}
    # 17 is black: red is collected first, then PT-A 29: columns, simple chances, dozens, pleins.
    assert order == {"red": 1, "column2": 2, "odd": 3, "dozen2": 4, "17": 5}


def test_text_reads_number_colour_then_collect_then_pay_in_order(capsys):
    code, out, _ = run(capsys, "--profile", "pt-americana", "--number", "17", "17@blue",
                       "red@pink", "column2@blue", "odd@pink", "--value", "blue=2.50")
    assert code == 0
    assert out.splitlines()[0].startswith("17 black")
    collect, pay = out.index("collect:"), out.index("pay, in this order:")
    assert collect < out.index("red@pink") < pay
    assert pay < out.index("column2@blue") < out.index("odd@pink") < out.index("17@blue")
    assert "blue: pays 37 = 1 stack of 20 + 17 (92.50)" in out


@pytest.mark.parametrize("argv, named", [
    (["--number", "17", "1/5"], "1/5: 1/5 is not a split"),
    (["--number", "17", "--profile", "mt-fair", "dozen1+2"],
     "dozen1+2: mt-fair does not offer two-dozens bets"),
    (["--number", "17", "nassa"], "nassa: pt-americana does not offer nassa"),
    (["--number", "17", "17x0"], "17x0: x0 is not a number of chips"),
])
def test_a_bad_bet_exits_non_zero_naming_it(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == "" and named in err


@pytest.mark.parametrize("argv, named", [
    (["--number", "37", "17"], "argument --number: '37' is not a number on the wheel"),
    (["--number", "x", "17"], "argument --number: 'x'"),
    (["--profile", "pt-french", "--number", "1", "17"], "'pt-french' is not a profile; use one of mt-fair"),
    (["--number", "1", "--value", "blue", "17"], "argument --value: 'blue' is not OWNER=AMOUNT"),
    (["--number", "1"], "BET"),
])
def test_bad_options_exit_non_zero_naming_them(capsys, argv, named):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code != 0 and named in capsys.readouterr().err


def test_the_console_command_answers_without_loading_ui_or_hardware():
    probe = ("import sys; from croupier.cli import main; code = main(['payout', '--number', '17', "
             "'voisins']); heavy = [m for m in ('textual', 'serial', 'gpiozero') if m in "
             "sys.modules]; print(heavy); sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("[]") and "17 black" in proc.stdout
