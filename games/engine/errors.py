"""The one exception the engine raises for anything a player (or a program) got wrong."""


class IllegalAction(ValueError):
    """Raised by ``Game.new`` and ``Game.apply``.

    ``code`` is a stable snake_case identifier that programs may branch on
    (``not_your_turn``, ``no_such_card``, ...); ``str(error)`` is a sentence a
    player can read, shown as it is.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
