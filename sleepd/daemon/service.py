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


#: Location variables the daemon must see as the installing shell does, or it would read
#: other transcripts, another config or another database than the CLI.
PATH_VARIABLES = (
    paths.ENV_HOME,
    paths.ENV_CONFIG,
    paths.ENV_DATABASE_URL,
    paths.ENV_CLAUDE_CONFIG_DIR,
    paths.ENV_CODEX_HOME,
    "PGPASSFILE",  # libpq's password file for a PostgreSQL store (a path, never the password)
)
#: API keys the backends read; copied into the secrets file only when asked.
API_KEY_VARIABLES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")
SERVICE_ENV_FILENAME = "service.env"


@dataclass(frozen=True)
class ServiceSpec:
    executable: Path
    environment: dict[str, str] = field(default_factory=dict)
    log_dir: Path = field(default_factory=paths.log_dir)
    #: Variables too secret for the unit file: they go to `env_file` (0600).
    secrets: dict[str, str] = field(default_factory=dict)
    env_file: Path = field(default_factory=lambda: paths.home_dir() / SERVICE_ENV_FILENAME)
    #: Directories the hardened unit may write (everything else is read-only).
    writable: tuple[Path, ...] = ()
    #: Which variables came from the installing shell, for the install report.
    carried: tuple[str, ...] = ()


def url_has_password(url: str) -> bool:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).password is not None
    except ValueError:
        return True  # unparsable: treat as secret rather than inline it


def service_env_file() -> Path:
    return paths.home_dir() / SERVICE_ENV_FILENAME


def build_spec(executable: str | None = None, *, copy_api_keys: bool = False) -> ServiceSpec:
    """What the service runs, with the installing shell's locations pinned as absolute paths.

    SLEEPD_HOME and SLEEPD_CONFIG are always written (resolved here, so the service's
    own XDG variables cannot move them); CLAUDE_CONFIG_DIR, CODEX_HOME and
    SLEEPD_DATABASE_URL when the shell sets them. A database URL with a password, and
    API keys when `copy_api_keys`, go to the secrets file instead of the unit.
    """
    exe = resolve_executable(executable)
    env = {"PATH": service_path(exe)}
    secrets: dict[str, str] = {}
    carried: list[str] = []
    for name in PATH_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value:
            carried.append(name)
        if name == paths.ENV_HOME:
            value = str(paths.home_dir().absolute())
        elif name == paths.ENV_CONFIG:
            value = str(paths.config_file().absolute())
        elif value and name != paths.ENV_DATABASE_URL:
            value = str(Path(value).expanduser().absolute())
        if not value:
            continue
        if name == paths.ENV_DATABASE_URL and url_has_password(value):
            secrets[name] = value
        else:
            env[name] = value
    if copy_api_keys:
        for name in API_KEY_VARIABLES:
            value = os.environ.get(name, "").strip()
            if value:
                secrets[name] = value
                carried.append(name)
    return ServiceSpec(
        executable=exe,
        environment=env,
        log_dir=paths.log_dir(),
        secrets=secrets,
        env_file=service_env_file(),
        writable=writable_paths(),
        carried=tuple(carried),
    )


def writable_paths() -> tuple[Path, ...]:
    """What the daemon writes: its home, the agent CLIs' state (a replay runs them), and
    the projects whose documents a night may auto-adopt into."""
    out = [paths.home_dir(), *paths.claude_config_dirs(), paths.codex_home()]
    out.append(Path.home() / ".claude.json")  # Claude Code's own settings file
    try:
        from sleepd.config import load_config

        out.extend(Path(t.project) for t in load_config().targets)
    except SleepdError:
        pass
    return tuple(dict.fromkeys(p.expanduser().absolute() for p in out))


ENV_FILE_HEADER = (
    "# sleepd service secrets (0600): read by the service only, never written into the unit.\n"
    "# Add API keys here, one per line, e.g. ANTHROPIC_API_KEY='sk-ant-...'\n"
)


def render_env_file(spec: ServiceSpec, existing: str = "") -> str:
    """The secrets file: the user's own lines kept, the spec's secrets set or replaced."""
    lines = existing.splitlines() if existing.strip() else ENV_FILE_HEADER.splitlines()
    for key, value in spec.secrets.items():
        entry = f"{key}={_env_file_quote(value)}"
        for i, line in enumerate(lines):
            if line.partition("=")[0].strip() == key:
                lines[i] = entry
                break
        else:
            lines.append(entry)
    return "\n".join(lines) + "\n"


def write_env_file(spec: ServiceSpec) -> bool:
    try:
        existing = spec.env_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    return write_private(spec.env_file, render_env_file(spec, existing))


def describe_spec(spec: ServiceSpec) -> list[str]:
    """Plain lines for `service install`: which variables the service got, and where."""
    inline = [k for k in spec.environment if k != "PATH"]
    lines = ["service environment: " + ", ".join(f"{k}={spec.environment[k]}" for k in inline)]
    lines.append(
        "carried from this shell: " + (", ".join(spec.carried) if spec.carried else "nothing")
    )
    if spec.secrets:
        lines.append(
            f"secrets kept out of the unit, in {spec.env_file} (0600): " + ", ".join(spec.secrets)
        )
    else:
        lines.append(f"API keys: add them to {spec.env_file} (0600), see docs/daemon.md")
    return lines


def _env_file_quote(value: str) -> str:
    """A value for systemd's EnvironmentFile= (and `load_service_env`): single-quoted."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def load_service_env(path: Path | None = None) -> list[str]:
    """Set the secrets file's variables that are not set yet (launchd has no EnvironmentFile=).

    Read only when the file is the user's own and private (0600); returns the names set.
    """
    path = path or service_env_file()
    try:
        st = path.stat()
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return []
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    import shlex

    done = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, raw = line.partition("=")
        key = key.strip()
        try:
            words = shlex.split(raw)
        except ValueError:
            continue
        value = words[0] if words else ""
        if key.isidentifier() and key not in os.environ:
            os.environ[key] = value
            done.append(key)
    return done


def write_private(path: Path, content: str) -> bool:
    """Write `content` 0600 (atomically, whatever the umask); True when it changed."""
    try:
        if path.read_text(encoding="utf-8") == content and not path.stat().st_mode & 0o077:
            return False
    except FileNotFoundError:
        pass
    paths.ensure_private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(content)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return True


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
    env_lines += "\nEnvironmentFile=-" + _systemd_quote(str(spec.env_file), in_exec=False)
    # "-": a path that does not exist yet is skipped rather than failing the start.
    writable = " ".join(_systemd_quote("-" + str(p), in_exec=False) for p in spec.writable)
    return _fill(
        _template(UNIT_TEMPLATE),
        {"EXEC_START": exec_start, "ENVIRONMENT": env_lines, "READ_WRITE_PATHS": writable},
    )


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
        secrets_changed = write_env_file(spec)
        outcome.changed = write_if_changed(path, self.render(spec)) or secrets_changed
        outcome.hints.extend(describe_spec(spec))
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
        paths.ensure_private_dir(spec.log_dir)
        secrets_changed = write_env_file(spec)
        outcome.changed = write_if_changed(path, self.render(spec)) or secrets_changed
        outcome.hints.extend(describe_spec(spec))
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
