"""A flow a result closes goes on, once the payouts are done, at the question it was on, with the
answers already given; a PIN typed before the result is asked again, saying so, never replayed."""
from decimal import Decimal

from croupier.rules.spin import Direction
from croupier.table.events import Role
from ui_kit import PINS, asked_note, flat, kinds, press, screen_text, settle

SIZE = (80, 24)


async def result_17(pilot, session) -> None:
    """The wheel launches and reads 17 while the flow is on screen; the croupier records the payouts."""
    session.launch(direction=Direction.CLOCKWISE)
    session.enter_result(number=17, by="Ana")
    session.confirm_result(by="Ana")
    await settle(pilot)
    assert "Payouts · 17" in flat(screen_text(pilot.app))
    await press(pilot, "1", "d")  # 1 chip on the first row; recorded
    await settle(pilot)


async def test_a_relief_goes_on_at_the_question_it_was_on(table_app, session):
    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "d", "5", "1", "1", "2", "2")  # relief of the croupier by Rui; half his PIN typed
        assert "PIN of Rui" in screen_text(table_app)
        await result_17(pilot, session)
        text = flat(screen_text(table_app).replace("█", " "))
        assert "Relief goes on where it was, after the payouts" in text, text
        assert "PIN of Rui" in text and "Relief of" not in text and "Who takes over?" not in text
        assert "••" not in text  # the digits half typed are not kept
        await press(pilot, *PINS["Rui"], "enter")
        assert session.state.staff_on(Role.CROUPIER) == "Rui"


async def test_a_pit_boss_flow_goes_on_at_its_question_after_the_pin_is_typed_again(table_app, session):
    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "d", "7", "1", *PINS["Marta"], "enter", "2")  # pit boss Marta: change the minimum
        assert "New minimum" in screen_text(table_app)
        await result_17(pilot, session)
        assert "PIN of Marta" in screen_text(table_app)  # the name is kept, the PIN is not
        assert "type it again" in asked_note(table_app)
        await press(pilot, *PINS["Marta"], "enter")
        assert "New minimum" in screen_text(table_app)  # the action chosen before the result: kept
        await press(pilot, "1", "0", "enter", "1")  # 10, for the first reason
        assert session.state.minimum == Decimal(10)
    assert kinds(session).count("wrong-pin") == 0


async def test_a_colour_flow_goes_on_with_the_colour_chosen(table_app, session):
    async with table_app.run_test(size=SIZE) as pilot:
        await press(pilot, "d", "1", "2", "2")  # colours: add chips to blue
        assert "Chips for blue" in flat(screen_text(table_app))
        session.launch(direction=Direction.CLOCKWISE)
        session.enter_result(number=17, by="Ana")
        session.confirm_result(by="Ana")
        await settle(pilot)
        await press(pilot, "1", "d")
        await settle(pilot)
        assert "Chips for blue" in flat(screen_text(table_app))  # the same question, blue kept
        await press(pilot, "5", "enter")
    assert session.state.accounts["blue"].issued == 55


def test_an_answer_no_longer_offered_or_another_question_is_asked_from_there():
    from croupier.ui.choice_screen import ChoiceScreen
    from croupier.ui.flow_memory import NOT_GIVEN, FlowMemory
    from croupier.ui.number_screen import NumberScreen

    first = FlowMemory()
    first.answered(ChoiceScreen("Add chips to", [("red", "red"), ("blue", "blue")]), "blue")
    first.answered(NumberScreen("Chips for blue", "Chips:"), "5")
    answers = first.resumable()
    gone = FlowMemory(answers)  # blue cashed out meanwhile: not offered, asked; the rest asked too
    assert gone.given(ChoiceScreen("Add chips to", [("red", "red")])) is NOT_GIVEN
    gone.answered(ChoiceScreen("Add chips to", [("red", "red")]), "red")
    assert gone.given(NumberScreen("Chips for blue", "Chips:")) is NOT_GIVEN
    same = FlowMemory(answers)
    assert same.given(ChoiceScreen("Add chips to", [("red", "red"), ("blue", "blue")])) == "blue"
    assert same.given(NumberScreen("Chips for blue", "Chips:")) == "5"
    recorded = FlowMemory()
    recorded.answered(ChoiceScreen("Add chips to", [("blue", "blue")]), "blue")
    recorded.recorded = True
    assert recorded.resumable() == ()  # a command recorded would be recorded twice: it starts again


def test_a_pin_is_never_kept():
    from croupier.ui.flow_memory import FlowMemory
    from croupier.ui.number_screen import NumberScreen

    memory = FlowMemory()
    memory.answered(NumberScreen("Pit boss", "PIN of Marta:", secret=True), "9000")
    assert "9000" not in repr(memory.resumable())
    again = FlowMemory(memory.resumable())
    question = NumberScreen("Pit boss", "PIN of Marta:", secret=True)
    assert again.asking_a_pin_again(question) and again.given(question) != "9000"
