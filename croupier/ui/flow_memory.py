"""The answers a menu's flow was given, so that a flow a result closed goes on, once the payouts are
done, at the question it was on: the flow runs again from its start and each question it asks again
takes the answer given before, without being shown, while the questions are the same ones and the
answer is still one of the options. Every check in the flow runs again against the table as it is
now, so an answer the table no longer takes is refused as if typed.

A PIN is never kept: the flow stops there and asks for it again, saying why. A flow that recorded
a command before the result is not replayed (it would record it twice): it starts again."""
from __future__ import annotations

from croupier.rules.record import Record
from croupier.ui.choice_screen import ChoiceScreen
from croupier.ui.number_screen import NumberScreen


class Answer(Record, kw_only=False):
    question: tuple  # what the question was: its kind, title, prompt
    value: object  # None for a PIN: never kept
    secret: bool


def _identity(question) -> tuple:
    return (type(question).__name__, getattr(question, "title_text", None), getattr(question, "prompt", None),
            getattr(question, "secret", False))


def _offered(question, value) -> bool:
    if isinstance(question, ChoiceScreen):
        return any(option == value for _label, option in question.options)
    return isinstance(question, NumberScreen) and isinstance(value, str)


NOT_GIVEN = object()


class FlowMemory:
    def __init__(self, answers: tuple[Answer, ...] = ()) -> None:
        self.answers: list[Answer] = []  # given in this run, replayed ones included
        self._replay = list(answers)
        self.recorded = False  # the flow recorded a command: it cannot be replayed

    def given(self, question) -> object:
        """The answer given before to `question`, or NOT_GIVEN (then it is asked)."""
        if not self._replay:
            return NOT_GIVEN
        answer = self._replay[0]
        if answer.question != _identity(question) or answer.secret or not _offered(question, answer.value):
            return NOT_GIVEN  # a PIN, or the flow asks something else now: asked from here on
        self._replay.pop(0)
        self.answers.append(answer)
        return answer.value

    def asking_a_pin_again(self, question) -> bool:
        """`question` is a PIN typed before the result, asked again."""
        return bool(self._replay) and self._replay[0].secret and self._replay[0].question == _identity(question)

    def answered(self, question, value) -> None:
        """`question` answered on screen; what comes next is asked unless it was answered before."""
        secret = bool(getattr(question, "secret", False))
        if self._replay and self._replay[0].question == _identity(question) and self._replay[0].secret:
            self._replay.pop(0)  # the PIN asked again: the answers after it still stand
        else:
            self._replay.clear()
        self.answers.append(Answer(_identity(question), None if secret else value, secret))

    def resumable(self) -> tuple[Answer, ...]:
        """The answers to give the flow when it opens again (none: it starts from its first question)."""
        return () if self.recorded else tuple(self.answers)
