"""YAML-ish frontmatter without PyYAML: `key: value` lines, kept byte-exact when unchanged.

Only the keys sleepd reads (`name`, `description`) are interpreted; every other line, including
nested maps and comments, is kept verbatim so a user's document round-trips untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FENCE = "---"
_KEY_LINE = re.compile(r"^([A-Za-z0-9_-]+):(?:[ \t]+(.*?))?[ \t]*$")


@dataclass
class Frontmatter:
    """Parsed frontmatter: ordered raw lines plus the simple values we understand."""

    lines: list[str] = field(default_factory=list)  # raw lines between the fences, with EOL
    values: dict[str, str] = field(default_factory=dict)  # top-level `key: scalar` only

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    def set(self, key: str, value: str) -> None:
        """Change or add a simple key; other lines stay byte-identical."""
        rendered = f"{key}: {_quote(value)}\n"
        for i, line in enumerate(self.lines):
            m = _KEY_LINE.match(line.rstrip("\r\n"))
            if m and m.group(1) == key:
                eol = line[len(line.rstrip("\r\n")) :] or "\n"
                self.lines[i] = rendered[:-1] + eol
                break
        else:
            self.lines.append(rendered)
        self.values[key] = value


@dataclass
class Document:
    """A document split into optional frontmatter and body."""

    frontmatter: Frontmatter | None
    body: str
    opening: str = ""  # the exact opening fence line
    closing: str = ""  # the exact closing fence line

    def render(self) -> str:
        if self.frontmatter is None:
            return self.body
        return self.opening + "".join(self.frontmatter.lines) + self.closing + self.body


def parse(text: str) -> Document:
    """Split `text`; a document without a leading `---` fence has no frontmatter."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != FENCE:
        return Document(None, text)
    for end in range(1, len(lines)):
        if lines[end].rstrip("\r\n") == FENCE:
            inner = lines[1:end]
            return Document(
                Frontmatter(inner, _values(inner)),
                "".join(lines[end + 1 :]),
                lines[0],
                lines[end],
            )
    return Document(None, text)  # unterminated: treat everything as body


def frontmatter_span(text: str) -> int:
    """Length of the frontmatter block (fences included); 0 when there is none."""
    doc = parse(text)
    return len(text) - len(doc.body) if doc.frontmatter is not None else 0


def _values(lines: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in lines:
        m = _KEY_LINE.match(line.rstrip("\r\n"))
        if m and m.group(2) is not None:
            values[m.group(1)] = _unquote(m.group(2))
    return values


def _unquote(raw: str) -> str:
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    return raw


def _quote(value: str) -> str:
    plain = value and not re.search(r"(^[\s'\"!&*\[\]{}|>%@`#-])|(: )|( #)|(\s$)", value)
    if plain and "\n" not in value:
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


SKILL_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RESERVED_WORDS = ("anthropic", "claude")


def validate_skill(doc: Document, *, directory_name: str | None = None) -> list[str]:
    """Agent Skills frontmatter rules; one clear line per problem, empty when valid."""
    if doc.frontmatter is None:
        return ["SKILL.md has no frontmatter (--- name/description --- block)"]
    errors: list[str] = []
    name = doc.frontmatter.get("name")
    description = doc.frontmatter.get("description")
    if not name:
        errors.append("frontmatter: 'name' is missing or empty")
    else:
        if len(name) > 64:
            errors.append(f"frontmatter: 'name' is {len(name)} characters (max 64)")
        if not SKILL_NAME.match(name):
            errors.append(
                f"frontmatter: 'name' {name!r} must be lowercase letters, digits and single "
                "hyphens, not starting or ending with a hyphen"
            )
        for word in RESERVED_WORDS:
            if word in name:
                errors.append(f"frontmatter: 'name' {name!r} must not contain {word!r}")
        if directory_name is not None and name != directory_name:
            errors.append(
                f"frontmatter: 'name' {name!r} does not match its folder {directory_name!r}"
            )
    if description is None or not description.strip():
        errors.append("frontmatter: 'description' is missing or empty")
    elif len(description) > 1024:
        errors.append(f"frontmatter: 'description' is {len(description)} characters (max 1024)")
    return errors
