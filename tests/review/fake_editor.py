"""A scripted $EDITOR: first call breaks the frontmatter, later calls make a valid edit."""

import os
import sys
from pathlib import Path

state = Path(os.environ["FAKE_EDITOR_STATE"])
calls = int(state.read_text()) if state.exists() else 0
state.write_text(str(calls + 1))
target = Path(sys.argv[1])
text = target.read_text()
if calls == 0:
    target.write_text(text.replace("---\n", "", 1))
else:
    target.write_text(text.replace("Check twice.", "Check twice, reviewed by a person."))
