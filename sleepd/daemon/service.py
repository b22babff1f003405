"""Install sleepd as a per-user service: a systemd user unit or a launchd agent.

Rendering is pure (templates in `systemd/`), so `--print` and tests work on any
platform. Every external command (systemctl, loginctl, launchctl) goes through
`run_command`, found on PATH, so tests put fakes there.
"""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from sleepd import paths
from sleepd.errors import NotFoundError, SleepdError

UNIT_NAME = "sleepd.service"
UNIT_TEMPLATE = "sleepd.service.in"
LAUNCHD_LABEL = "dev.sleepd.daemon"
PLIST_TEMPLATE = "dev.sleepd.daemon.plist.in"
STANDARD_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
#: Tools the backends run as subprocesses; their directories go on the service's PATH.
AGENT_CLIS = ("claude", "codex")
COMMAND_TIMEOUT_S = 60


class ServiceError(SleepdError):
    """A service manager command failed."""


@dataclass(frozen=True)
class CommandResult:
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def run_command(argv: list[str]) -> CommandResult:
    """Run a service-manager command, never raising for a missing binary or a failure."""
    exe = shutil.which(argv[0])
    if exe is None:
        return CommandResult(argv, 127, "", f"{argv[0]}: command not found")
    try:
        proc = subprocess.run(
            [exe, *argv[1:]],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return CommandResult(argv, 124, "", f"{argv[0]}: timed out after {COMMAND_TIMEOUT_S} s")
    return CommandResult(argv, proc.returncode, proc.stdout, proc.stderr)


# --- what to run ---------------------------------------------------------------


def resolve_executable(explicit: str | None = None) -> Path:
    """The installed `sleepd` script, as an absolute path a service can start."""
    if explicit:
        path = Path(explicit).expanduser().absolute()
        if path.is_file() and os.access(path, os.X_OK):
            return path
        raise NotFoundError(f"{explicit} is not an executable file")
    candidates: list[Path] = []
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name == "sleepd":
        candidates.append(argv0)
    found = shutil.which("sleepd")
    if found:
        candidates.append(Path(found))
    candidates.append(Path(sys.executable).parent / "sleepd")
    for candidate in candidates:
        path = candidate.absolute()
        if path.is_file() and os.access(path, os.X_OK):
            return path
    raise NotFoundError(
        "cannot find the installed `sleepd` executable; install sleepd (pipx install sleepd) "
        "or pass --executable"
    )


def service_path(executable: Path) -> str:
    """PATH for the service: sleepd's own dir, the agent CLIs' dirs, then the usual ones."""
    dirs: list[str] = [str(executable.parent)]
    for tool in AGENT_CLIS:
        found = shutil.which(tool)
        if found:
            dirs.append(str(Path(found).parent))
    dirs.extend(STANDARD_PATH)
    return ":".join(dict.fromkeys(dirs))


@dataclass(frozen=True)
class ServiceSpec:
    executable: Path
    environment: dict[str, str] = field(default_factory=dict)
    log_dir: Path = field(default_factory=paths.log_dir)


def build_spec(executable: str | None = None) -> ServiceSpec:
    exe = resolve_executable(executable)
    env = {"PATH": service_path(exe)}
    for name in (paths.ENV_HOME, paths.ENV_CONFIG, paths.ENV_DATABASE_URL):
        value = os.environ.get(name, "").strip()
        if value:
            env[name] = value
    return ServiceSpec(executable=exe, environment=env, log_dir=paths.log_dir())


# --- rendering -----------------------------------------------------------------


def _template(name: str) -> str:
    return (paths.service_templates_dir() / name).read_text(encoding="utf-8")


def _fill(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace(f"@{key}@", value)
    return template


def _systemd_quote(value: str, *, in_exec: bool) -> str:
    """Quote one word for a unit file: `%` specifiers and (in Exec) `$` expansions escaped."""
    value = value.replace("%", "%%")
    if in_exec:
        value = value.replace("$", "$$")
    if any(c in value for c in " \t\"\\'"):
        value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def render_systemd_unit(spec: ServiceSpec) -> str:
    exec_start = " ".join(
        _systemd_quote(word, in_exec=True) for word in (str(spec.executable), "daemon")
    )
    env_lines = "\n".join(
        "Environment=" + _systemd_quote(f"{key}={value}", in_exec=False)
        for key, value in spec.environment.items()
    )
    return _fill(_template(UNIT_TEMPLATE), {"EXEC_START": exec_start, "ENVIRONMENT": env_lines})


def render_launchd_plist(spec: ServiceSpec) -> str:
    env_lines = "\n".join(
        f"    <key>{escape(key)}</key>\n    <string>{escape(value)}</string>"
        for key, value in spec.environment.items()
    )
    return _fill(
        _template(PLIST_TEMPLATE),
        {
            "LABEL": LAUNCHD_LABEL,
            "EXECUTABLE": escape(str(spec.executable)),
            "STDOUT_PATH": escape(str(spec.log_dir / "launchd.out.log")),
            "STDERR_PATH": escape(str(spec.log_dir / "launchd.err.log")),
            "ENVIRONMENT": env_lines,
        },
    )


# --- installing ----------------------------------------------------------------


def write_if_changed(path: Path, content: str) -> bool:
    """Atomically replace `path` only when its content differs; True when it wrote."""
    try:
        if path.read_text(encoding="utf-8") == content:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(content, encoding="utf-8")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return True


@dataclass
class Outcome:
    """What an install/uninstall/status did, for humans and `--json`."""

    platform: str
    path: Path
    changed: bool = False
    commands: list[list[str]] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    def run(self, argv: list[str], *, check: bool = True) -> CommandResult:
        """Run a service-manager command and remember it; a failure is one line."""
        self.commands.append(argv)
        result = run_command(argv)
        if check and not result.ok:
            detail = (result.stderr or result.stdout).strip().splitlines()
            raise ServiceError(
                f"`{' '.join(argv)}` failed (exit {result.returncode})"
                + (f": {detail[-1]}" if detail else "")
            )
        return result

    def to_dict(self) -> dict[str, Any]:
        return {
            "platform": self.platform,
            "path": str(self.path),
            "changed": self.changed,
            "commands": [" ".join(c) for c in self.commands],
            "hints": self.hints,
            **self.state,
        }


class SystemdUser:
    """A systemd user unit in $XDG_CONFIG_HOME/systemd/user."""

    platform = "linux"

    @staticmethod
    def unit_path() -> Path:
        base = os.environ.get("XDG_CONFIG_HOME", "").strip()
        root = Path(base).expanduser() if base else Path.home() / ".config"
        return root / "systemd" / "user" / UNIT_NAME

    def render(self, spec: ServiceSpec) -> str:
        return render_systemd_unit(spec)

    def _run(self, outcome: Outcome, *args: str, check: bool = True) -> CommandResult:
        return outcome.run(["systemctl", "--user", *args], check=check)

    def install(self, spec: ServiceSpec) -> Outcome:
        path = self.unit_path()
        outcome = Outcome(self.platform, path)
        outcome.changed = write_if_changed(path, self.render(spec))
        if outcome.changed:
            self._run(outcome, "daemon-reload")
            self._run(outcome, "enable", UNIT_NAME)
            self._run(outcome, "restart", UNIT_NAME)  # starts it, or picks up the new unit
        else:
            self._run(outcome, "enable", "--now", UNIT_NAME)
        if linger_enabled(outcome) is False:
            user = _username()
            outcome.hints.append(
                f"sleepd stops when you log out; to keep it running run: "
                f"loginctl enable-linger {user}"
            )
        return outcome

    def uninstall(self) -> Outcome:
        path = self.unit_path()
        outcome = Outcome(self.platform, path)
        if not path.exists():
            outcome.hints.append("not installed; nothing to do")
            return outcome
        self._run(outcome, "disable", "--now", UNIT_NAME, check=False)
        path.unlink()
        outcome.changed = True
        self._run(outcome, "daemon-reload", check=False)
        return outcome

    def status(self, spec: ServiceSpec | None) -> Outcome:
        path = self.unit_path()
        outcome = Outcome(self.platform, path)
        installed = path.exists()
        state: dict[str, Any] = {"installed": installed, "up_to_date": None}
        if installed and spec is not None:
            state["up_to_date"] = path.read_text(encoding="utf-8") == self.render(spec)
        for key, verb in (("enabled", "is-enabled"), ("active", "is-active")):
            result = self._run(outcome, verb, UNIT_NAME, check=False)
            state[key] = (result.stdout.strip() or "unknown").splitlines()[0]
        state["linger"] = linger_enabled(outcome)
        outcome.state = state
        return outcome


def _username() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())


def linger_enabled(outcome: Outcome) -> bool | None:
    """`loginctl show-user $USER -p Linger`: True/False, None when it cannot be told."""
    argv = ["loginctl", "show-user", _username(), "-p", "Linger"]
    outcome.commands.append(argv)
    result = run_command(argv)
    if not result.ok:
        return None
    value = result.stdout.strip().partition("=")[2].strip().lower()
    return {"yes": True, "no": False}.get(value)


class LaunchdAgent:
    """A LaunchAgent in ~/Library/LaunchAgents, loaded into gui/<uid>."""

    platform = "macos"

    @staticmethod
    def plist_path() -> Path:
        return Path.home() / "Library" / "LaunchAgents" / f"{LAUNCHD_LABEL}.plist"

    @staticmethod
    def domain() -> str:
        return f"gui/{os.getuid()}"

    def render(self, spec: ServiceSpec) -> str:
        return render_launchd_plist(spec)

    def _run(self, outcome: Outcome, *args: str, check: bool = True) -> CommandResult:
        return outcome.run(["launchctl", *args], check=check)

    def _loaded(self, outcome: Outcome) -> CommandResult:
        return self._run(outcome, "print", f"{self.domain()}/{LAUNCHD_LABEL}", check=False)

    def install(self, spec: ServiceSpec) -> Outcome:
        path = self.plist_path()
        outcome = Outcome(self.platform, path)
        spec.log_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        outcome.changed = write_if_changed(path, self.render(spec))
        loaded = self._loaded(outcome).ok
        if loaded and not outcome.changed:
            return outcome
        if loaded:
            self._run(outcome, "bootout", f"{self.domain()}/{LAUNCHD_LABEL}", check=False)
        self._run(outcome, "bootstrap", self.domain(), str(path))
        return outcome

    def uninstall(self) -> Outcome:
        path = self.plist_path()
        outcome = Outcome(self.platform, path)
        if self._loaded(outcome).ok:
            self._run(outcome, "bootout", f"{self.domain()}/{LAUNCHD_LABEL}", check=False)
        if not path.exists():
            outcome.hints.append("not installed; nothing to do")
            return outcome
        path.unlink()
        outcome.changed = True
        return outcome

    def status(self, spec: ServiceSpec | None) -> Outcome:
        path = self.plist_path()
        outcome = Outcome(self.platform, path)
        installed = path.exists()
        state: dict[str, Any] = {"installed": installed, "up_to_date": None}
        if installed and spec is not None:
            state["up_to_date"] = path.read_text(encoding="utf-8") == self.render(spec)
        result = self._loaded(outcome)
        state["loaded"] = result.ok
        fields: dict[str, str] = {}
        for line in result.stdout.splitlines():
            key, sep, value = line.strip().partition(" = ")
            if sep and key in ("state", "pid", "last exit code"):
                fields.setdefault(key.replace(" ", "_"), value.strip())
        state.update(fields)
        outcome.state = state
        return outcome


def manager_for(platform: str | None = None) -> SystemdUser | LaunchdAgent:
    platform = platform or ("macos" if sys.platform == "darwin" else "linux")
    if platform == "macos":
        return LaunchdAgent()
    if platform == "linux":
        return SystemdUser()
    raise SleepdError(f"unsupported platform {platform!r}; expected linux or macos")
