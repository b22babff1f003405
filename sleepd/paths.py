"""Every location sleepd reads or writes, in one place.

Environment variables override the config file and the platform defaults, so
tests, services and users can relocate everything without touching code.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "sleepd"

ENV_HOME = "SLEEPD_HOME"
ENV_CONFIG = "SLEEPD_CONFIG"
ENV_DATABASE_URL = "SLEEPD_DATABASE_URL"
ENV_CLAUDE_CONFIG_DIR = "CLAUDE_CONFIG_DIR"
ENV_CODEX_HOME = "CODEX_HOME"

#: Marker in the working directory of every replay sleepd runs; sessions whose
#: project path contains it are never harvested (replays must not feed back).
REPLAY_DIR_PREFIX = "sleepd-replay-"

DB_FILENAME = "sleepd.db"
LOCK_FILENAME = "daemon.lock"
LOG_DIRNAME = "logs"
STAGING_DIRNAME = "staging"


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value).expanduser() if value else None


def home_dir(create: bool = False) -> Path:
    """State directory (database, staging, logs, lock); created 0700 on demand."""
    path = _env_path(ENV_HOME)
    if path is None:
        import platformdirs

        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    if create:
        ensure_private_dir(path)
    return path


def ensure_private_dir(path: Path) -> Path:
    """Create a directory readable only by its owner (transcripts are private)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(0o700)
    except PermissionError:
        pass
    return path


def config_file() -> Path:
    path = _env_path(ENV_CONFIG)
    if path is not None:
        return path
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "config.toml"


def database_file() -> Path:
    return home_dir() / DB_FILENAME


def database_url(configured: str | None = None) -> str:
    """The env var wins, then the config file's value, then a SQLite file in the home."""
    env = os.environ.get(ENV_DATABASE_URL, "").strip()
    if env:
        return env
    if configured:
        return configured
    return f"sqlite:///{database_file()}"


def lock_file() -> Path:
    return home_dir() / LOCK_FILENAME


def log_dir() -> Path:
    return home_dir() / LOG_DIRNAME


def staging_dir() -> Path:
    return home_dir() / STAGING_DIRNAME


def claude_config_dir() -> Path:
    return _env_path(ENV_CLAUDE_CONFIG_DIR) or Path.home() / ".claude"


def claude_config_dirs() -> list[Path]:
    """Every folder Claude Code keeps its state in: `$CLAUDE_CONFIG_DIR` when that is set,
    as Claude Code itself reads it; else `~/.claude` and the XDG place some 1.0 builds used
    instead (`$XDG_CONFIG_HOME/claude`, `~/.config/claude`), so a history that moved between
    builds is read whole. One that is a link to the other is named once. A folder that does
    not exist holds nothing to read."""
    chosen = _env_path(ENV_CLAUDE_CONFIG_DIR)
    if chosen is not None:
        return [chosen]
    xdg = os.environ.get("XDG_CONFIG_HOME", "").strip()
    config_home = Path(xdg).expanduser() if xdg else Path.home() / ".config"
    return distinct_places([Path.home() / ".claude", config_home / "claude"])


def claude_projects_dirs() -> list[Path]:
    """Where Claude Code keeps its sessions (`claude_config_dirs`)."""
    return [folder / "projects" for folder in claude_config_dirs()]


def distinct_places(folders: list[Path]) -> list[Path]:
    """`folders` in order, each place once: a link to a folder listed before it is left out,
    so nothing under it is read twice."""
    seen: set[str] = set()
    out = []
    for folder in folders:
        real = os.path.realpath(folder)
        if real not in seen:
            seen.add(real)
            out.append(folder)
    return out


def claude_settings_file() -> Path:
    return claude_config_dir() / "settings.json"


def codex_home() -> Path:
    return _env_path(ENV_CODEX_HOME) or Path.home() / ".codex"


def codex_session_dirs() -> list[Path]:
    home = codex_home()
    return [home / "sessions", home / "archived_sessions"]


def package_data_dir() -> Path:
    return Path(__file__).resolve().parent


def service_templates_dir() -> Path:
    """systemd/launchd templates: inside the wheel, or the source tree's `systemd/`."""
    installed = package_data_dir() / "_service_templates"
    if installed.is_dir():
        return installed
    return package_data_dir().parent / "systemd"


def migrations_dir() -> Path:
    import migrations

    return Path(migrations.__file__).resolve().parent


def samples_dir() -> Path:
    """Bundled sample transcripts for the demo (synthetic, labelled as samples)."""
    return package_data_dir() / "samples"


TMP_DIRNAME = "tmp"


def private_tmp_root() -> Path:
    """`SLEEPD_HOME/tmp`: the only place sleepd writes temporary files holding transcript text.

    Inside the 0700 home, never the shared system temp folder; one subfolder per process
    (`process_tmp_dir`), so a process that died leaves a folder `clean_stale_tmp` can tell
    from a live one's.
    """
    return home_dir() / TMP_DIRNAME


def process_tmp_dir() -> Path:
    """This process's private temp folder (0700), created on demand."""
    root = private_tmp_root()
    ensure_private_dir(home_dir())
    ensure_private_dir(root)
    return ensure_private_dir(root / f"{os.getpid()}-{start_mark(os.getpid())}")


def private_mkdtemp(prefix: str) -> Path:
    """A fresh 0700 folder inside this process's private temp folder."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix=prefix, dir=process_tmp_dir()))


def clean_stale_tmp() -> int:
    """Remove the temp folders of processes that are gone; returns how many were removed.

    A folder is named `<pid>-<start mark>`; it is stale when that pid no longer runs, or
    runs but started at another time (the pid was reused). Never raises.
    """
    root = private_tmp_root()
    removed = 0
    try:
        entries = list(root.iterdir())
    except OSError:
        return 0
    for entry in entries:
        pid_text, _, mark = entry.name.partition("-")
        if pid_text.isdigit() and alive(int(pid_text), mark):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink():
                import shutil  # only when there is something to remove (start-up cost)

                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        except OSError:
            continue
        removed += 1
    return removed


def start_mark(pid: int) -> str:
    """The process's start time in clock ticks since boot (Linux), else "0"."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "0"
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else "0"


def alive(pid: int, mark: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return mark in ("", "0") or start_mark(pid) in (mark, "0")
