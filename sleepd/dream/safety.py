"""Lint the text an edit adds: transcripts are untrusted, and so is what is learned from them.

Only *added* lines are checked (a user's own document is not ours to judge). The text is
normalised before any rule looks at it, so spelling tricks do not get past a rule:
Unicode NFKC (fullwidth forms), homoglyphs mapped to the Latin letters they imitate,
invisible characters removed, HTML entities decoded, markdown links, code spans and
escapes unwrapped, continuation lines joined, shell quoting and wrappers stripped
(`r''m`, `\\rm`, `/bin/rm`, `sudo`, `command`, `env X=1`) and long options spelled short
(`--recursive --force` is `-rf`).

Rules either block (the edit is refused) or flag (the reviewer must look, and a flagged
proposal is never auto-adopted), as `SafetyPolicy` says. A negation ("never run …", "do
not …") never silences a rule: an injected "do not hesitate to run rm -rf ~" is still
`rm -rf ~`. Anything the lint cannot read with confidence (mixed scripts, invisible
characters, encoded blobs, a command only visible when lines are joined) is flagged.
Hosts count as known only when the user's configuration or the user's own document names
them; text harvested from transcripts never vouches for a host.
"""

from __future__ import annotations

import difflib
import html
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["reject", "flag"]

RULES = (
    "pipe_to_shell",  # downloaded or decoded text executed
    "destructive",  # rm -rf of a root/home/system path, mkfs, dd to a device, fork bombs
    "exfiltration",  # secrets or files sent to the network
    "bypass_safety",  # skip tests or hooks, delete failing tests, disable sandboxes
    "force_push",  # rewriting a remote branch
    "instruction_injection",  # "ignore previous instructions", auto-approve everything
    "secret",  # a live-looking credential
    "unknown_host",  # a host the user has not configured
    "risky_command",  # worth a look: rm -rf elsewhere, git reset --hard, chmod 777 …
    "unsure",  # text the lint cannot read with confidence
)

# --- normalisation -------------------------------------------------------------------------

#: Letters of other scripts that look like Latin ones (Unicode confusables, the common part).
_CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g", "ү": "y",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "ԛ ": "q",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z",
    "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T",
    "Υ": "Y", "Χ": "X",
    # Armenian
    "ս": "u", "օ": "o", "ո": "n", "հ": "h", "ց": "g", "զ": "q", "ա": "w", "ե": "t",
    # Latin look-alikes outside ASCII that NFKC keeps
    "ı": "i", "ȷ": "j", "ʀ": "r", "ɑ": "a", "ɩ": "i", "ɪ": "i", "ʏ": "y", "ᴀ": "a",
    "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ᴋ": "k", "ᴍ": "m", "ᴏ": "o", "ᴘ": "p", "ᴛ": "t",
    "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ᴢ": "z", "ſ": "s",
    # punctuation that stands in for shell syntax
    "∣": "|", "ǀ": "|", "│": "|", "￨": "|", "⏐": "|", "ꟾ": "|", "‐": "-", "‑": "-",
    "‒": "-", "–": "-", "—": "-", "−": "-", "⁄": "/", "∕": "/", "⧸": "/", "∼": "~",
    "˜": "~", "‚": ",", "＄": "$", "ꓸ": ".", "․": ".", "‘": "'", "’": "'", "“": '"',
    "”": '"', "´": "'", "｀": "`", "ˋ": "`",
}  # fmt: skip
_CONFUSABLE_TABLE = str.maketrans({k.strip(): v for k, v in _CONFUSABLES.items()})
#: Zero-width, joiner, bidi and other invisible format characters.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)
#: A Markdown link or image. Its text, destination and title stop at a `[`, so a text of
#: many `[` or `[a](` is not scanned to its end from each of them; a link holding a
#: nested `[` (rare) is left as written, its address still in the text.
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\(\s*<?([^)\s>\[]*)>?(?:\s+\"[^\"\[]*\")?\s*\)")
#: An autolink: its address holds no `<`, `>` or white space (as CommonMark has it).
_MD_AUTOLINK = re.compile(r"<((?:https?|ftp)://[^<>\s]+)>")
_MD_REF_DEF = re.compile(r"^[^\S\n]*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
_HTML_TAG = re.compile(r"</?(?:code|kbd|pre|samp|span|b|i|em|strong|tt|var)\b[^>]*>", re.I)
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~$&;'\"])")
_CONTINUATION = re.compile(r"\\\s*\n\s*")
#: A run of white space holding a line break, before a line that opens with an operator:
#: it starts only where the run starts (so a long run is read once, not from each of its
#: line breaks); the spaces before its first break are kept (`\1`).
_LEADING_OPERATOR = re.compile(r"(?<!\s)([^\S\n]*)\n\s*(?=(?:\||&&|\|\||;|>|<))")
_TRAILING_OPERATOR = re.compile(r"(\||&&|\|\||\()\s*\n\s*")


@dataclass(frozen=True)
class Normalised:
    """The added text as rules read it, and what normalising had to undo."""

    lines: list[str]  # one per logical line (continuations joined), normalised
    flat: str  # every line joined with spaces: pipelines split over unrelated lines
    mixed_script: list[str] = field(default_factory=list)  # words mixing scripts
    invisible: int = 0  # invisible characters removed


def _mixed_script_words(text: str) -> list[str]:
    words = re.findall(r"[^\W\d_]{2,}", text)
    return [w for w in words if any(c.isascii() for c in w) and any(not c.isascii() for c in w)]


#: Control characters a terminal or an editor acts on instead of showing (an escape
#: sequence, a backspace over a command, a lone carriage return that overwrites a line);
#: a carriage return that ends a line (CRLF) is a file's line ending.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")


def normalise(text: str) -> Normalised:
    """The text with every spelling trick the rules know of undone."""
    invisible = len(_INVISIBLE.findall(text)) + len(_CONTROL.findall(text))
    text = _CONTROL.sub("", _INVISIBLE.sub("", text))
    text = html.unescape(html.unescape(text))
    text = unicodedata.normalize("NFKC", text)
    mixed = _mixed_script_words(text)
    text = text.translate(_CONFUSABLE_TABLE)
    text = unicodedata.normalize("NFKC", text)
    text = _MD_LINK.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)
    text = _MD_AUTOLINK.sub(r"\1", text)
    text = _MD_REF_DEF.sub(r"\1", text)
    text = _HTML_TAG.sub("", text)
    text = text.replace("```", "\n").replace("`", " ")
    text = _MD_ESCAPE.sub(r"\1", text)
    text = _CONTINUATION.sub(" ", text)
    text = _TRAILING_OPERATOR.sub(r"\1 ", text)
    text = _LEADING_OPERATOR.sub(r"\1 ", text)
    lines = [re.sub(r"[ \t\f\v]+", " ", line).strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    return Normalised(lines, " ".join(lines), mixed, invisible)


# --- shell reading ---------------------------------------------------------------------------

_WRAPPERS = {
    "sudo", "doas", "command", "builtin", "exec", "nohup", "time", "nice", "ionice", "xargs",
    "busybox", "env", "stdbuf", "timeout", "watch", "then", "do", "else", "run", "eval",
    "!", "{", "(", "-",
}  # fmt: skip
_SEGMENT_SPLIT = re.compile(r"\|\||&&|[;|&\n]|\$\(|`|\bthen\b|\bdo\b")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_LONG_SHORT = {
    "--recursive": "r", "--force": "f", "--dir": "d", "--no-verify": "n",
    "--verbose": "v", "--interactive": "i",
}  # fmt: skip


def _dequote(word: str) -> str:
    """`r''m` -> rm, `"rm"` -> rm, `\\rm` -> rm, `$'rm'` -> rm."""
    word = word.replace("$'", "'")
    word = re.sub(r"['\"]", "", word)
    return word.replace("\\", "")


@dataclass(frozen=True)
class Command:
    name: str  # basename, lower case
    args: list[str]
    text: str

    @property
    def short_flags(self) -> set[str]:
        flags: set[str] = set()
        for arg in self.args:
            if arg.startswith("--"):
                key = arg.split("=", 1)[0]
                if key in _LONG_SHORT:
                    flags.add(_LONG_SHORT[key])
            elif arg.startswith("-") and len(arg) > 1 and not arg[1].isdigit():
                flags.update(arg[1:])
        return flags

    @property
    def operands(self) -> list[str]:
        return [a for a in self.args if not a.startswith("-")]

    def has(self, *options: str) -> bool:
        return any(a == o or a.startswith(o + "=") for a in self.args for o in options)


def _command_name(word: str) -> str:
    return word.rsplit("/", 1)[-1].lower().rstrip(".,:;")


def commands(line: str) -> list[Command]:
    """Every simple command in a line of shell-like text, wrappers and quoting removed.

    Prose around a command ("To reset, rm -rf ~/") is skipped up to the first word that
    names a command the rules know.
    """
    out = []
    for segment in _SEGMENT_SPLIT.split(line):
        words = [_dequote(w) for w in segment.split()]
        words = [w for w in words if w]
        if words and _command_name(words[0]) not in _KNOWN_COMMANDS:
            start = next(
                (i for i, w in enumerate(words) if _command_name(w) in _KNOWN_COMMANDS), None
            )
            words = words[start:] if start is not None else []
        while words and (words[0].lower() in _WRAPPERS or _ASSIGNMENT.match(words[0])):
            words = words[1:]
            while words and words[0].startswith("-") and len(words) > 1:
                words = words[1:]  # a wrapper's own options (sudo -u x, nice -n 5)
        if not words:
            continue
        out.append(Command(_command_name(words[0]), words[1:], segment.strip()))
    return out


def pipelines(line: str) -> list[list[Command]]:
    """Commands grouped by pipeline (split on `|` only within a segment of `;`/`&&`)."""
    groups = []
    for chain in re.split(r"\|\||&&|;|\n", line):
        stages = [commands(stage) for stage in chain.split("|")]
        groups.append([c for stage in stages for c in stage[:1]])
    return groups


_HOME_TARGET = re.compile(r"^(?:~|\$\{?HOME\}?|/home/[^/]+|/Users/[^/]+|/root)(?:/\.?\*?)?$")
_SYSTEM_DIRS = {
    "/", "/*", "/.", "/..", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt",
    "/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/users", "/system",
    "/library", "/applications", "c:", "c:/", "c:\\", "*", ".", "./", "./*", "..", "../",
    "../*", ".*", "~/*", "$home/*",
}  # fmt: skip
_SECRET_PATHS = re.compile(
    r"(?:~|\$\{?HOME\}?)/\.(?:ssh|aws|gnupg|netrc|config/gh|docker/config|kube|npmrc|pypirc|"
    r"git-credentials)|id_(?:rsa|ed25519|ecdsa|dsa)\b|/etc/(?:shadow|passwd)|(?:^|[\s/])\.env\b",
    re.IGNORECASE,
)
_DOWNLOADERS = {
    "curl", "wget", "fetch", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "aria2c",
    "http", "https", "lwp-request", "gh", "base64", "openssl", "xxd", "certutil", "python",
    "python3", "perl", "printf", "echo", "cat",
}  # fmt: skip
_DECODERS = {"base64", "openssl", "xxd", "certutil", "uudecode", "gunzip", "zcat", "rev"}
_INTERPRETERS = {
    "sh", "bash", "zsh", "ksh", "dash", "fish", "csh", "tcsh", "ash", "python", "python2",
    "python3", "perl", "ruby", "node", "php", "iex", "invoke-expression", "pwsh",
    "powershell", "source", ".", "lua", "deno", "bun", "osascript", "cmd", "cmd.exe",
}  # fmt: skip
_NETWORK = {
    "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "rsync", "ftp",
    "ssh", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "http", "https", "gh",
    "mail", "sendmail", "aws", "gsutil", "rclone",
}  # fmt: skip
_URL = re.compile(r"\b(?:https?|ftp|wss?)://([^\s/:?#'\"<>()\[\]`]+)(?::\d+)?[^\s'\"<>()`]*", re.I)
_BARE_HOST = re.compile(
    r"(?<![\w@./-])((?:[a-z0-9-]+\.)+(?:com|net|org|io|sh|dev|app|xyz|ru|cn|tk|top|co|me|"
    r"info|biz|site|online|cc|ws|pw|link|click|zip|mov|gg|ly|to|so|ai))(?=/[^\s]*|:\d+)",
    re.IGNORECASE,
)
_IP_HOST = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?![\d.])")


_KNOWN_COMMANDS = (
    _WRAPPERS - {"then", "do", "else", "run", "!", "{", "(", "-", "time", "watch"}
) | _DOWNLOADERS | _DECODERS | _INTERPRETERS - {"."} | _NETWORK | {
    "rm", "del", "rmdir", "remove-item", "chmod", "chown", "chgrp", "setfacl", "icacls", "dd",
    "find", "kill", "pkill", "killall", "crontab", "shutdown", "reboot", "halt", "poweroff",
    "git", "claude", "codex", "printenv", "wipefs", "shred", "fdisk", "parted", "sfdisk",
    "mkfs", "mkfs.ext4", "mkfs.ext3", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat",
}  # fmt: skip


def _shell_findings(line: str) -> list[tuple[str, str]]:
    """(rule, excerpt) for every dangerous command in one normalised line."""
    found: list[tuple[str, str]] = []
    for group in pipelines(line):
        names = [c.name for c in group]
        for i, cmd in enumerate(group):
            later = names[i + 1 :]
            if later and any(n in _INTERPRETERS for n in later):
                fetches = cmd.name in _DOWNLOADERS - {
                    "echo",
                    "printf",
                    "cat",
                    "python",
                    "python3",
                    "perl",
                }
                decodes = cmd.name in _DECODERS or (
                    cmd.name in {"echo", "printf", "cat"} and re.search(r"\\x[0-9a-f]{2}", cmd.text)
                )
                if fetches or decodes:
                    found.append(("pipe_to_shell", " | ".join(c.text for c in group)[:160]))
            if cmd.name in _NETWORK and any(n in {"sh", "bash", "zsh", "iex"} for n in later):
                found.append(("pipe_to_shell", " | ".join(c.text for c in group)[:160]))
            if cmd.name in {"printenv", "env", "set", "export", "history"} and any(
                n in _NETWORK for n in later
            ):
                found.append(("exfiltration", " | ".join(c.text for c in group)[:160]))
            if _SECRET_PATHS.search(cmd.text) and any(n in _NETWORK for n in later):
                found.append(("exfiltration", " | ".join(c.text for c in group)[:160]))
    for cmd in commands(line):
        found.extend(_command_findings(cmd))
    return found


def _command_findings(cmd: Command) -> list[tuple[str, str]]:
    name, flags, ops, text = cmd.name, cmd.short_flags, cmd.operands, cmd.text[:160]
    lowered = [o.lower().rstrip("/") or "/" for o in ops]
    dangerous_target = any(
        o in _SYSTEM_DIRS or o + "/" in _SYSTEM_DIRS or _HOME_TARGET.match(o) for o in lowered
    ) or any(_HOME_TARGET.match(o.split("/")[0] or "/") and o.count("/") <= 1 for o in ops)
    if name == "rm" or name == "del" or name == "rmdir" or name == "remove-item":
        recursive = bool({"r", "R"} & flags) or cmd.has("-recurse", "--no-preserve-root")
        if recursive and (dangerous_target or any(_SECRET_PATHS.search(o) for o in ops)):
            return [("destructive", text)]
        if any(_SECRET_PATHS.search(o) for o in ops) or (recursive and "f" in flags):
            return [("risky_command", text)]
        if any(o.startswith((".git", "~", "$home", "/")) for o in lowered):
            return [("risky_command", text)]
    if name in {"chmod", "chown", "chgrp", "setfacl", "icacls"}:
        world = any(
            re.fullmatch(r"0?[0-7]?77[67]|[ugoa]*[+=][rwxXst]*w[rwxXst]*|666", o)
            and ("o" in o or "a" in o or o[0] in "+=" or o.isdigit())
            for o in lowered
        )
        recursive = bool({"R", "r"} & flags) or cmd.has("--recursive")
        if recursive and dangerous_target:
            return [("destructive", text)]
        if world:
            return [("destructive" if recursive else "risky_command", text)]
    if name.startswith("mkfs") or name in {
        "wipefs",
        "shred",
        "fdisk",
        "parted",
        "sfdisk",
        "format",
    }:
        return [("destructive", text)]
    if name == "dd" and any(a.startswith("of=/dev/") for a in cmd.args):
        return [("destructive", text)]
    if name == "find" and ("-delete" in cmd.args or "rm" in cmd.args) and dangerous_target:
        return [("destructive", text)]
    if name in {"kill", "pkill", "killall"} and (
        "-1" in cmd.args or ("-9" in cmd.args and "-1" in ops)
    ):
        return [("destructive", text)]
    if name == "crontab" and "r" in flags:
        return [("destructive", text)]
    if name in {"shutdown", "reboot", "halt", "poweroff"}:
        return [("risky_command", text)]
    if name == "git":
        return _git_findings(cmd)
    if name in {"curl", "wget", "http", "https", "iwr", "invoke-webrequest", "invoke-restmethod"}:
        upload = any(re.match(r"^@", a) or re.search(r"=@", a) for a in cmd.args) or cmd.has(
            "-T", "--upload-file", "--post-file", "--body-file", "-infile"
        )
        if upload:
            return [("exfiltration", text)]
        if cmd.has("-k", "--insecure", "--no-check-certificate"):
            return [("risky_command", text)]
    if name in {"nc", "ncat", "netcat", "socat", "telnet"}:
        if "e" in flags or "c" in flags or "<" in cmd.text:
            return [("exfiltration", text)]
        return [("risky_command", text)]
    if name in {"scp", "rsync", "sftp"} and any(":" in o for o in ops):
        sensitive = any(_SECRET_PATHS.search(o) for o in ops)
        return [("exfiltration" if sensitive else "risky_command", text)]
    if name in {"claude", "codex"} and (
        cmd.has(
            "--dangerously-skip-permissions", "--yolo", "--dangerously-bypass-approvals-and-sandbox"
        )
        or "danger-full-access" in cmd.text
        or "bypasspermissions" in cmd.text.lower()
    ):
        return [("bypass_safety", text)]
    return []


def _git_findings(cmd: Command) -> list[tuple[str, str]]:
    args = cmd.args
    while args and args[0].startswith("-"):  # git -C dir / -c key=value before the verb
        args = args[2:] if args[0] in ("-C", "-c") else args[1:]
    if not args:
        return []
    verb, rest = args[0].lower(), args[1:]
    sub = Command(verb, rest, cmd.text)
    text = cmd.text[:160]
    found: list[tuple[str, str]] = []
    if verb == "push":
        lease = sub.has("--force-with-lease", "--force-if-includes")
        forced = (
            sub.has("--force", "--mirror", "--prune", "--delete")
            or "f" in sub.short_flags
            or "d" in sub.short_flags
            or any(o.startswith(("+", ":")) for o in sub.operands)
        )
        if forced:
            found.append(("force_push", text))
        elif lease:
            found.append(("risky_command", text))
    hooked = {"commit", "push", "merge", "rebase", "am", "cherry-pick", "revert", "pull"}
    if verb in hooked and (sub.has("--no-verify") or (verb == "commit" and "n" in sub.short_flags)):
        found.append(("bypass_safety", text))
    if verb == "config" and any("hookspath" in a.lower() for a in rest):
        found.append(("bypass_safety", text))
    if (
        sub.has("--hard")
        or (verb == "clean" and "f" in sub.short_flags)
        or verb in {"filter-branch", "filter-repo"}
        or (verb in {"checkout", "restore"} and "." in sub.operands)
    ):
        found.append(("risky_command", text))
    if verb == "update-ref" and "d" in sub.short_flags:
        found.append(("force_push", text))
    if verb == "branch" and ("D" in sub.short_flags) and {"main", "master"} & set(sub.operands):
        found.append(("risky_command", text))
    return found


# --- prose and pattern rules -------------------------------------------------------------------

_TESTS = (
    r"(?:unit |integration |e2e |failing |flaky |slow |broken |red |existing"
    r" |relevant )*(?:tests?|test suites?|specs?|checks?|ci|linters?|lint(?:"
    r"ing)?|type ?check(?:s|ing)?|mypy|pytest|pre-?commit|hooks?|git hooks?|"
    r"commit hooks?|verification|validation)"
)
_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "pipe_to_shell": [
        re.compile(
            r"\b(?:ba|z|k|da|fi)?sh\b\s+(?:-\w+\s+)*(?:<\(|-c\s*[\"']?\s*\$\(|<<<\s*\"?\$\()\s*"
            r"(?:curl|wget|fetch|iwr|base64|python3?)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:eval|source|exec|iex|invoke-expression|\.)\s*\(?\s*[\"']?(?:\$\(|<\(|`)\s*"
            r"(?:curl|wget|fetch|iwr|irm|invoke-webrequest|base64|python3?)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:iex|invoke-expression)\b.*\b(?:iwr|irm|invoke-webrequest|invoke-r"
            r"estmethod|downloadstring|frombase64string)\b",
            re.I,
        ),
        re.compile(r"\bpython3?\s+-c\s+.*\b(?:urlopen|requests\.get|exec\(|eval\()", re.I),
        re.compile(r"\b(?:pip|pip3|npm|npx|gem|cargo)\s+(?:install\s+)?(?:git\+)?https?://", re.I),
    ],
    "destructive": [
        re.compile(r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:"),  # fork bomb
        re.compile(r">\s*/dev/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d)", re.I),
        re.compile(r"\bdrop\s+(?:database|schema)\b", re.I),
        re.compile(
            r"\b(?:delete|erase|wipe|remove|destroy)\s+(?:everything\s+in\s+|all\s+("
            r"?:files\s+)?(?:in|under)\s+)?(?:the\s+)?(?:user'?s\s+)?(?:home\s+(?:di"
            r"rectory|folder|dir)|root\s+(?:directory|filesystem)|entire\s+(?:disk|d"
            r"rive|filesystem|repo(?:sitory)?))",
            re.I,
        ),
    ],
    "exfiltration": [
        re.compile(
            r"\b(?:send|upload|post|exfiltrate|leak|transmit|forward|copy|paste|shar"
            r"e|email|mail)\w*\s+"
            r"(?:\w+\s+){0,4}(?:secrets?|tokens?|credentials?|api[ _-]?keys?|passwor"
            r"ds?|private keys?|"
            r"ssh keys?|\.env|env(?:ironment)? (?:variables|vars)|cookies?|session ids?)\b"
            r"(?:\s+\w+){0,6}\s+(?:to|at|into)\b",
            re.I,
        ),
        re.compile(r"\b(?:printenv|env)\s*(?:>|\|)\s*\S*(?:curl|nc|http)", re.I),
    ],
    "bypass_safety": [
        re.compile(
            r"\b(?:skip|skipping|skipped|bypass\w*|disabl\w*|turn\w* off|ignor\w*|om"
            r"it\w*|circumvent\w*|avoid\w* running|suppress\w*|silenc\w*|mute)\s+(?:"
            r"running\s+|the\s+|all\s+|any\s+|our\s+|your\s+|these\s+|those\s+)*" + _TESTS + r"\b",
            re.I,
        ),
        re.compile(
            r"\b(?:don'?t|do not|no need to|never|needn'?t|stop)\s+(?:bother\w*\s+(?"
            r":to\s+)?)?(?:run(?:ning)?|execut\w*|wait\w* for)\s+(?:the\s+|any\s+|al"
            r"l\s+)?" + _TESTS + r"\b",
            re.I,
        ),
        re.compile(
            r"\b(?:delet\w*|remov\w*|comment\w* out|disabl\w*|weaken\w*|loosen\w*|re"
            r"writ\w*|xfail|mark\w*)\s+(?:the\s+|any\s+|all\s+)?(?:failing|broken|fl"
            r"aky|red|erroring|offending)\s+(?:test|spec|assert)",
            re.I,
        ),
        re.compile(
            r"\b(?:chang\w*|edit\w*|updat\w*|rewrit\w*|adjust\w*)\s+(?:the\s+)?(?:as"
            r"sertions?|expected (?:values?|outputs?)|snapshots?|golden files?)\s+(?"
            r":so|until|to make)\b",
            re.I,
        ),
        re.compile(
            r"@pytest\.mark\.(?:skip|xfail)|\bpytest\.skip\(|\bunittest\.skip|\b(?:i"
            r"t|test|describe)\.skip\(|\bx(?:it|describe)\(|\bt\.Skip\(|#\[ignore\]|"
            r"@Disabled\b|@Ignore\b",
            re.I,
        ),
        re.compile(
            r"--no-verify\b|\bHUSKY=0\b|\bSKIP=\S+|\bPRE_COMMIT_ALLOW_NO_CONFIG\b|--"
            r"no-run-if-empty\s+pre-commit|core\.hooksPath",
            re.I,
        ),
        re.compile(
            r"--dangerously-skip-permissions|--dangerously-bypass-approvals|danger-f"
            r"ull-access|bypassPermissions|\bapproval[_-]policy\s*[=:]?\s*[\"']?neve"
            r"r|--yolo\b|\bfull-auto\b",
            re.I,
        ),
        re.compile(
            r"\b(?:disabl\w*|bypass\w*|turn\w* off|remov\w*)\s+(?:the\s+)?(?:[\w-]+"
            r"\s+){0,2}(?:sandbox|safety (?:checks?|rules?)|permissions? (?:checks?|"
            r"prompts?)|firewall|selinux|apparmor|antivirus|2fa|mfa|ssl verification"
            r"|tls verification|certificate (?:verification|checks?)|branch protecti"
            r"on|code review|reviews?)\b",
            re.I,
        ),
        re.compile(
            r"#\s*(?:noqa|type:\s*ignore|nosec|pragma:\s*no cover)\b|eslint-disable|"
            r"@ts-(?:ignore|nocheck|expect-error)|//\s*nolint",
            re.I,
        ),
        re.compile(
            r"(?:pytest|npm test|make test|cargo test|go test|tox|nox)[^|\n]*\|\|\s*"
            r"(?:true|:|exit 0)\b",
            re.I,
        ),
        re.compile(
            r"\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*[\"']?0|\bGIT_SSL_NO_VERIFY\b|\bP"
            r"YTHONHTTPSVERIFY\s*=\s*0",
            re.I,
        ),
    ],
    "force_push": [
        re.compile(r"\bforce[- ]push\w*\b", re.I),
        re.compile(r"\bpush\s+(?:\S+\s+)*--force\b", re.I),
        re.compile(
            r"\b(?:overwrite|rewrite)\s+(?:the\s+)?(?:remote|origin|upstream|publish"
            r"ed)\s+(?:\w+\s+)?(?:history|branch)",
            re.I,
        ),
    ],
    "instruction_injection": [
        re.compile(
            r"\b(?:ignore|disregard|forget|override|overrule|bypass|skip)\w*\s+(?:al"
            r"l\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+)?(?:p"
            r"revious|prior|above|earlier|preceding|original|existing|user'?s?|syste"
            r"m|developer|safety|other)\s+(?:\w+\s+)?(?:instructions?|rules?|guidanc"
            r"e|guidelines?|prompts?|directions?|requests?|constraints?|messages?)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:new|updated|real|actual|hidden|secret)\s+(?:system\s+)?instructions?\s*:", re.I
        ),
        re.compile(
            r"\byou are now\b|\bact as (?:an? )?(?:unrestricted|jailbroken|dan)\b|\b"
            r"developer mode\b|\bsystem prompt\b|\bjailbreak\w*\b",
            re.I,
        ),
        re.compile(
            r"\b(?:do not|don'?t|never)\s+(?:tell|inform|notify|ask|alert|show|menti"
            r"on (?:this )?to)\s+(?:the\s+)?(?:user|human|reviewer|operator)\b",
            re.I,
        ),
        re.compile(
            r"\bwithout\s+(?:asking|telling|informing|confirming with|notifying|the "
            r"knowledge of|permission from)\s+(?:the\s+)?(?:user|human|reviewer|oper"
            r"ator)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:never|don'?t|do not)\s+ask\s+(?:for\s+)?(?:confirmation|permissio"
            r"n|approval)|\b(?:auto(?:matically)?[- ]?approv\w*|always approve|appro"
            r"ve (?:all|every)(?:thing)?)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:hide|conceal|cover up|delete|clear|erase)\s+(?:the\s+|your\s+|all"
            r"\s+)?(?:traces?|evidence|logs?|history|audit (?:log|trail))\b",
            re.I,
        ),
        re.compile(r"\b(?:unset\s+HISTFILE|history\s+-c|HISTSIZE=0)\b", re.I),
    ],
    "secret": [
        re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),
        re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}"),
        re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
        re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{30,}"),
        re.compile(
            r"\bglpat-[A-Za-z0-9_-]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}\b"
        ),
        re.compile(
            r"\bnpm_[A-Za-z0-9]{36}\b|\bhf_[A-Za-z0-9]{30,}\b|\bSG\.[A-Za-z0-9_-]{20"
            r",}\.[A-Za-z0-9_-]{20,}"
        ),
        re.compile(r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----"),
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        re.compile(
            r"\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|clien"
            r"t[_-]?secret)\s*[:=]\s*[\"']?(?=[A-Za-z0-9_\-+/=!@#$%^&*.]*\d)(?=[A-Za"
            r"-z0-9_\-+/=!@#$%^&*.]*[A-Za-z])[A-Za-z0-9_\-+/=!@#$%^&*.]{12,}",
            re.I,
        ),
        re.compile(r"\bauthorization:\s*(?:bearer|basic|token)\s+[A-Za-z0-9_\-.=+/]{16,}", re.I),
        re.compile(r"://[^\s:/@]+:[^\s:/@]{6,}@"),  # credentials inside a URL
        # A secret the redactor replaced: the edit copied a secret-bearing transcript line.
        re.compile(r"\[REDACTED:?[^\]\n]{0,40}\]|\bredacted\b", re.I),
    ],
    "risky_command": [
        re.compile(r"\bdrop\s+table\b|\btruncate\s+table\b|\bdelete\s+from\s+\w+\s*;", re.I),
        re.compile(r"\bverify\s*=\s*False\b|StrictHostKeyChecking\s*=?\s*no", re.I),
        re.compile(
            r"(?:~|\$HOME)/\.(?:claude|codex)/|\bsettings\.json\b.*\bpermissions\b|"
            r"\ballowedTools\b",
            re.I,
        ),
        re.compile(r"\bsudo\b", re.I),
    ],
}
_ENCODED_BLOB = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{48,}={0,2}(?![A-Za-z0-9+/=])")
_HEX_ESCAPES = re.compile(
    r"(?:\\x[0-9a-fA-F]{2}){4,}|(?:\\u[0-9a-fA-F]{4}){3,}|(?:%[0-9a-fA-F]{2}){6,}"
)


@dataclass(frozen=True)
class SafetyFlag:
    rule: str
    severity: Severity
    excerpt: str


@dataclass(frozen=True)
class SafetyPolicy:
    """Per-rule severity: every block rule rejects; hosts, risky commands and doubt flag."""

    severities: Mapping[str, Severity] = field(
        default_factory=lambda: {
            "unknown_host": "flag",
            "risky_command": "flag",
            "unsure": "flag",
        }
    )

    def severity(self, rule: str) -> Severity:
        return self.severities.get(rule, "reject")


def added_lines(old_doc: str, new_doc: str) -> list[str]:
    """Lines present in the new document but not in the old one (difflib)."""
    matcher = difflib.SequenceMatcher(
        a=old_doc.splitlines(), b=new_doc.splitlines(), autojunk=False
    )
    return [
        line
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag in ("insert", "replace")
        for line in new_doc.splitlines()[j1:j2]
    ]


def hosts_in(text: str) -> set[str]:
    """Hosts named in `text` (URLs), lower case: how a user's own document vouches for one."""
    return {m.group(1).lower().rstrip(".") for m in _URL.finditer(normalise(text).flat)}


def lint_edit(
    old_doc: str,
    new_doc: str,
    *,
    known_hosts: set[str],
    policy: SafetyPolicy | None = None,
) -> list[SafetyFlag]:
    """Every rule hit in the added text; an empty list means nothing to worry about."""
    return lint_text(
        "\n".join(added_lines(old_doc, new_doc)), known_hosts=known_hosts, policy=policy
    )


def lint_text(
    text: str, *, known_hosts: set[str], policy: SafetyPolicy | None = None
) -> list[SafetyFlag]:
    """Every rule hit in `text` (added text), each (rule, excerpt) once."""
    policy = policy or SafetyPolicy()
    if not text.strip():
        return []
    norm = normalise(text)
    hits: list[tuple[str, str]] = []
    for line in norm.lines:
        hits.extend(_line_hits(line, known_hosts))
    # A command that only appears when the lines are read together (a pipeline split over
    # lines without a continuation) is unsure: flagged, never silently passed.
    seen_rules = {(rule) for rule, _ in hits}
    for rule, excerpt in _line_hits(norm.flat, known_hosts):
        if rule not in seen_rules and rule not in ("unknown_host", "risky_command"):
            hits.append(("unsure", f"{rule} when lines are joined: {excerpt}"))
    if norm.mixed_script:
        hits.append(("unsure", "mixed-script word(s): " + ", ".join(norm.mixed_script[:3])))
    if norm.invisible:
        hits.append(("unsure", f"{norm.invisible} invisible character(s)"))
    raw = "\n".join(norm.lines)
    if _ENCODED_BLOB.search(raw) or _HEX_ESCAPES.search(text):
        blob = _ENCODED_BLOB.search(raw) or _HEX_ESCAPES.search(text)
        assert blob is not None
        hits.append(("unsure", "encoded text: " + blob.group(0)[:24] + "…"))
    flags: list[SafetyFlag] = []
    done: set[tuple[str, str]] = set()
    for rule, excerpt in hits:
        shown = _redact(excerpt) if rule == "secret" else excerpt[:200]
        if (rule, shown) in done:
            continue
        done.add((rule, shown))
        flags.append(SafetyFlag(rule, policy.severity(rule), shown))
    return flags


def _line_hits(line: str, known_hosts: set[str]) -> list[tuple[str, str]]:
    hits: list[tuple[str, str]] = []
    for rule, patterns in _PATTERNS.items():
        for pattern in patterns:
            hits.extend((rule, m.group(0)) for m in pattern.finditer(line))
    hits.extend(_shell_findings(line))
    hits.extend(("unknown_host", h) for h in _unknown_hosts(line, known_hosts))
    return hits


def blocking(flags: Sequence[SafetyFlag]) -> bool:
    """True when any flag rejects the edit."""
    return any(f.severity == "reject" for f in flags)


def _unknown_hosts(line: str, known_hosts: set[str]) -> list[str]:
    known = {h.lower().rstrip(".") for h in known_hosts}

    def is_known(host: str) -> bool:
        host = host.lower().rstrip(".")
        return any(host == k or host.endswith("." + k) for k in known)

    out = [m.group(0) for m in _URL.finditer(line) if not is_known(m.group(1))]
    for m in _BARE_HOST.finditer(line):
        if not is_known(m.group(1)) and not any(m.group(1) in u for u in out):
            out.append(m.group(1))
    out.extend(m.group(0) for m in _IP_HOST.finditer(line) if not is_known(m.group(1)))
    return out


def _redact(secret: str) -> str:
    """Never copy a secret into a report: keep only a recognisable prefix."""
    return secret[:6] + "…"


#: For callers that want to lint an arbitrary text source (tests, the review).
Linter = Callable[[str], list[SafetyFlag]]
