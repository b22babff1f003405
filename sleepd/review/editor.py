"""Open the reviewer's editor on a proposed document, the way git does."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from sleepd.errors import SleepdError


class EditorError(SleepdError):
    """The editor could not be started or exited with an error."""


def editor_command() -> list[str]:
    """$VISUAL, then $EDITOR, then vi; the value may carry arguments (`code --wait`)."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            return shlex.split(value)
    return ["vi"]


def edit_text(text: str, *, filename: str) -> str:
    """The text after the reviewer edited it in a private temp file (named like the document)."""
    from sleepd.paths import process_tmp_dir

    with tempfile.TemporaryDirectory(prefix="sleepd-edit-", dir=process_tmp_dir()) as tmp:
        path = Path(tmp) / filename
        path.write_bytes(text.encode("utf-8"))
        command = [*editor_command(), str(path)]
        try:
            completed = subprocess.run(command, check=False)
        except OSError as exc:
            raise EditorError(f"cannot start editor “{command[0]}”: {exc.strerror}") from None
        if completed.returncode != 0:
            raise EditorError(f"editor “{command[0]}” exited with status {completed.returncode}")
        try:
            return path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise EditorError("the edited file is not UTF-8 text") from None
        except FileNotFoundError:
            raise EditorError("the editor removed the file") from None
