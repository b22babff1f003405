"""What reaches a person's terminal: never a control character sleepd did not write.

Stored text is hostile. A tool's output carries ANSI colours and cursor moves, and a
crafted repository's can carry OSC sequences (a window title, a clipboard write, a
hyperlink), backspaces and carriage returns that overwrite what a line showed, and
bidirectional overrides that reorder it; a proposed skill document can carry the same.
Printed raw, `sleepd search`, `tasks list`, `patterns`, `review` or a warning naming a
file would hand them to the terminal.

One chokepoint for human output: `safe_console` (every rich console the CLI prints
through) removes them from the text it renders, and `visible` spells them out in the
lines written as they are (a diff, a one-line message). Removing keeps rich's layout
(each such character is zero cells wide) and shows what they hid: "rm -rf /" followed
by backspaces and "safe" reads as all of it. `--json` output needs neither: JSON
escapes every control character.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

#: C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides
#: and isolates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def stripped(text: str) -> str:
    """`text` without the characters a terminal would act on instead of showing."""
    return _UNSAFE.sub("", text)


def visible(text: str) -> str:
    """`text` with each such character spelled out (`\\x1b`, `\\u202e`)."""
    return _UNSAFE.sub(_spelled, text)


def _spelled(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_console(**options: Any) -> Any:
    """A rich `Console` (same options) whose rendered text holds no control character
    from the data: the styles, cursor moves and links rich writes itself are kept."""
    return _safe_console_class()(**options)


@cache
def _safe_console_class() -> Any:
    # rich is imported here, not at the top: the one-line messages of `common` use
    # `visible` on commands that never start rich
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.segment import Segment

    class SafeConsole(Console):
        def render(
            self, renderable: RenderableType, options: ConsoleOptions | None = None
        ) -> Iterable[Segment]:
            for segment in super().render(renderable, options):
                if segment.control is None and _UNSAFE.search(segment.text):
                    yield Segment(stripped(segment.text), segment.style)
                else:
                    yield segment

    return SafeConsole
