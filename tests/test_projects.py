"""One repository is one project, in whichever worktree its sessions ran."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sleepd.projects import ProjectRoots, project_root, repository_key, store_roots
from tests.git_repos import git, repo_with_commit


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return repo_with_commit(tmp_path / "code" / "app", {"web/index.js": "x\n"})


@pytest.mark.parametrize(
    ("recorded", "expected"),
    [
        ("/Users/a/app/.claude/worktrees/bright-running-fox", "/Users/a/app"),
        ("/Users/a/app/.claude/worktrees/fix/web", "/Users/a/app"),
        ("/Users/a/workspace/cli/.worktrees/alex/ent-108-summaries", "/Users/a/workspace/cli"),
        ("/Users/a/workspace/cli/.worktrees/3", "/Users/a/workspace/cli"),
        ("D:\\src\\app\\.claude\\worktrees\\x", "D:\\src\\app"),
        ("/Users/m/conductor/workspaces/chkit/davao", "/Users/m/conductor/workspaces/chkit"),
        ("/Users/m/conductor/workspaces/chkit/seoul-v1/pkg", "/Users/m/conductor/workspaces/chkit"),
        ("/Users/m/.conduit/workspaces/app/feature/x", "/Users/m/.conduit/workspaces/app"),
        # a folder of worktrees beside the repository (real: marot/spotter), the repository
        # not on this machine: the folder groups them
        ("/home/u/projects/spotter-worktrees/spotter-dov", "/home/u/projects/spotter-worktrees"),
        (
            "/home/u/projects/spotter-worktrees/spotter-dov/lib",
            "/home/u/projects/spotter-worktrees",
        ),
        ("/home/u/app_worktrees/fix", "/home/u/app_worktrees"),
        # Codex's worktrees, one <id> a task (real: jdx's Codex sessions outside the
        # repository), the repository not on this machine: its name groups them
        ("/Users/jdx/.codex/worktrees/a80e/mise", "/Users/jdx/.codex/worktrees/mise"),
        ("/Users/jdx/.codex/worktrees/4af4/mise/crates/vfox", "/Users/jdx/.codex/worktrees/mise"),
        ("C:\\Users\\j\\.codex\\worktrees\\ab12\\app", "C:\\Users\\j\\.codex\\worktrees\\app"),
        ("/Users/jdx/.codex/worktrees/a80e", "/Users/jdx/.codex/worktrees/a80e"),
        ("/Users/jdx/.codex/worktrees/../../etc", "/Users/jdx/.codex/worktrees/../../etc"),
        ("/Users/jdx/.codex/sessions/2026/01", "/Users/jdx/.codex/sessions/2026/01"),
        ("/home/u/my.worktrees.notes/x", "/home/u/my.worktrees.notes/x"),
        ("/home/u/app-worktrees", "/home/u/app-worktrees"),
        # ordinary paths, and look-alikes, stay as recorded
        ("/Users/a/app", "/Users/a/app"),
        ("/Users/a/app/web", "/Users/a/app/web"),
        ("/Users/a/worktrees/app", "/Users/a/worktrees/app"),
        ("/Users/a/my.worktrees.notes", "/Users/a/my.worktrees.notes"),
        ("/.worktrees/x", "/.worktrees/x"),
        ("D:\\oh-my-posh", "D:\\oh-my-posh"),
        ("", ""),
        (None, None),
    ],
)
def test_worktrees_that_are_gone_map_by_their_layout(
    recorded: str | None, expected: str | None
) -> None:
    assert project_root(recorded) == expected


def test_a_hostile_path_only_ever_shortens(tmp_path: Path) -> None:
    recorded = "/home/u/app/.claude/worktrees/x/../../../../etc"
    assert project_root(recorded) == "/home/u/app"
    assert recorded.startswith(str(project_root(recorded)))


def test_a_linked_worktree_on_this_machine_maps_into_its_main_worktree(
    repo: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "trees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(elsewhere))
    assert project_root(str(elsewhere)) == str(repo)
    # a session started in a subfolder keeps its place inside the repository
    assert project_root(str(elsewhere / "web")) == str(repo / "web")
    # the main worktree and its folders are already where they belong
    assert project_root(str(repo)) == str(repo)
    assert project_root(str(repo / "web")) == str(repo / "web")


def test_claude_code_worktrees_map_whether_present_or_removed(repo: Path) -> None:
    live = repo / ".claude" / "worktrees" / "bright-fox"
    git(repo, "worktree", "add", "-q", "-b", "worktree-bright-fox", str(live))
    gone = repo / ".claude" / "worktrees" / "merged-and-removed"
    assert project_root(str(live)) == str(repo)
    assert project_root(str(gone)) == str(repo)


def test_conductor_workspaces_join_the_repository_of_a_sibling_still_here(
    repo: Path, tmp_path: Path
) -> None:
    group = tmp_path / "conductor" / "workspaces" / "app"
    git(repo, "worktree", "add", "-q", "-b", "marc/davao", str(group / "davao"))
    archived = group / "amman"  # archived: its worktree was removed
    assert project_root(str(group / "davao")) == str(repo)
    assert project_root(str(archived)) == str(repo)
    assert project_root(str(archived / "packages" / "cli")) == str(repo)


def test_codex_worktrees_join_the_repository_of_a_sibling_still_here(
    repo: Path, tmp_path: Path
) -> None:
    base = tmp_path / ".codex" / "worktrees"
    git(repo, "worktree", "add", "-q", "-b", "codex/fix", str(base / "a80e" / "app"))
    removed = base / "4af4" / "app"  # its task ended and Codex removed the worktree
    assert project_root(str(base / "a80e" / "app")) == str(repo)
    assert project_root(str(removed)) == str(repo)
    assert project_root(str(removed / "web")) == str(repo)
    # another repository's worktrees keep their own name
    assert project_root(str(base / "9b31" / "other")) == str(base / "other")


def test_worktrees_of_a_bare_repository_stay_apart(tmp_path: Path, repo: Path) -> None:
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    tree = tmp_path / "bare-trees" / "one"
    git(bare, "worktree", "add", "-q", str(tree), "main")
    assert project_root(str(tree)) == str(tree)


def test_a_broken_git_file_is_not_followed(tmp_path: Path) -> None:
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / ".git").write_text("gitdir: /nowhere/.git/worktrees/odd\n")
    assert project_root(str(odd)) == str(odd)
    (odd / ".git").write_bytes(b"\xff\xfe not a git file")
    assert project_root(str(odd)) == str(odd)


def test_roots_are_remembered_per_pass(repo: Path, tmp_path: Path) -> None:
    tree = tmp_path / "trees" / "t"
    git(repo, "worktree", "add", "-q", "-b", "t", str(tree))
    roots = ProjectRoots()
    assert roots(str(tree)) == str(repo)
    git(repo, "worktree", "remove", "--force", str(tree))
    assert roots(str(tree)) == str(repo)  # the pass keeps what it saw first
    assert project_root(str(tree)) == str(tree)  # a path gone, in no known layout


def test_a_pass_reads_a_codex_worktree_group_once(repo: Path, tmp_path: Path) -> None:
    """Every removed Codex worktree of a repository maps alike within a pass, whichever of
    them is read first and whatever changes under the folder meanwhile."""
    base = tmp_path / ".codex" / "worktrees"
    base.mkdir(parents=True)
    roots = ProjectRoots()
    assert roots(str(base / "a1" / "app")) == str(base / "app")
    git(repo, "worktree", "add", "-q", "-b", "codex/x", str(base / "b2" / "app"))
    assert roots(str(base / "c3" / "app")) == str(base / "app")  # the group as first seen
    assert project_root(str(base / "c3" / "app")) == str(repo)  # a new pass sees the worktree


@pytest.mark.parametrize(
    "hostile",
    [
        "/x/conductor/workspaces/a\x00b/c",
        "/a\x00b/.claude/worktrees/x",
        "/" + "a" * 5000,
        "/tmp/\udcff/x",
        "\x00",
        "/x/conductor/workspaces/\udcff/c",
    ],
)
def test_a_path_no_file_can_have_maps_without_an_error(hostile: str) -> None:
    root = project_root(hostile)
    assert root is not None and hostile.startswith(root)


def test_a_git_file_is_read_only_as_far_as_a_path_goes(tmp_path: Path) -> None:
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / ".git").write_bytes(b"gitdir: " + b"x" * (1 << 20))
    assert project_root(str(odd)) == str(odd)


def test_a_removed_worktree_beside_its_repository_maps_to_it(repo: Path) -> None:
    beside = repo.parent / f"{repo.name}-worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(beside))
    assert project_root(str(beside / "web")) == str(repo / "web")  # on disk: git says
    git(repo, "worktree", "remove", "--force", str(beside))
    assert project_root(str(beside)) == str(repo)  # removed: its folder names the repository
    assert project_root(str(beside / "web")) == str(repo)


@pytest.mark.parametrize(
    ("path", "root"),
    [
        ("e:\\CC-test", "E:\\CC-test"),
        ("E:\\CC-test", "E:\\CC-test"),
        ("e:/AI/TestProject-v2", "E:/AI/TestProject-v2"),
        ("/home/e:/x", "/home/e:/x"),
    ],
)
def test_a_windows_drive_letter_has_no_case(path: str, root: str) -> None:
    # wild sample 6 (not in the repository): E:\CC-test and e:\CC-test were two projects
    assert project_root(path) == root


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://github.com/jdx/mise.git", "github.com/jdx/mise"),
        ("git@github.com:jdx/mise.git", "github.com/jdx/mise"),
        ("ssh://git@GitHub.com:22/jdx/mise/", "github.com/jdx/mise"),
        # a secret in the address is never part of the key
        ("https://x-access-token:ghp_abc123@github.com/jdx/mise", "github.com/jdx/mise"),
        ("http://gitea.local:3000/team/App.git/", "gitea.local/team/app"),
        ("/srv/git/app.git", "/srv/git/app"),
        ("C:\\repos\\app.git", "c:\\repos\\app"),  # a drive letter is no host
        ("file:///srv/git/app.git", "/srv/git/app"),
        ("", None),
        ("   ", None),
        (None, None),
    ],
)
def test_one_remote_has_one_key_however_git_spells_it(url: str | None, key: str | None) -> None:
    assert repository_key(url) == key


def codex_rows(base: Path, *ids_and_remotes: tuple[str, str | None]) -> list[tuple[str, Any]]:
    return [
        (str(base / wid / "app"), {"repository_url": remote} if remote else {})
        for wid, remote in ids_and_remotes
    ]


def test_removed_codex_worktrees_join_the_checkout_a_session_recorded(tmp_path: Path) -> None:
    base = tmp_path / ".codex" / "worktrees"
    rows = codex_rows(base, ("a1", "https://github.com/o/app.git"), ("b2", "git@github.com:o/app"))
    rows.append(("/Users/o/src/app", json.dumps({"repository_url": "https://github.com/o/app"})))
    rows.append(("/Users/o/src/other", {"repository_url": "https://github.com/o/other"}))
    roots = store_roots(rows)
    assert roots(str(base / "a1" / "app")) == "/Users/o/src/app"
    assert roots(str(base / "c3" / "app" / "crates")) == "/Users/o/src/app"
    assert roots("/Users/o/src/other") == "/Users/o/src/other"
    # a Codex worktree of a repository with no known checkout keeps its group name
    assert roots(str(base / "d4" / "lib")) == str(base / "lib")


def test_a_checkout_is_known_by_its_origin_too(tmp_path: Path, repo: Path) -> None:
    """A checkout only Claude Code worked in recorded no remote: its `.git/config` says it."""
    git(repo, "remote", "add", "origin", "git@github.com:o/app.git")
    base = tmp_path / ".codex" / "worktrees"
    rows = codex_rows(base, ("a1", "https://github.com/o/app.git"))
    rows.append((str(repo / "web"), {}))
    assert store_roots(rows)(str(base / "a1" / "app")) == str(repo / "web")
    rows[-1] = (str(repo), {})
    assert store_roots(rows)(str(base / "a1" / "app")) == str(repo)


@pytest.mark.parametrize(
    "case",
    ["two checkouts", "two remotes", "no remote", "other remote", "origin elsewhere"],
)
def test_a_codex_group_stays_apart_when_nothing_says_which_checkout(
    tmp_path: Path, repo: Path, case: str
) -> None:
    base = tmp_path / ".codex" / "worktrees"
    url = "https://github.com/o/app.git"
    rows = codex_rows(base, ("a1", url))
    if case == "two checkouts":  # a clone and a fork's clone of one remote
        rows += [
            ("/Users/o/src/app", {"repository_url": url}),
            ("/tmp/app", {"repository_url": url}),
        ]
    elif case == "two remotes":
        rows += codex_rows(base, ("b2", "https://github.com/fork/app.git"))
        rows.append(("/Users/o/src/app", {"repository_url": url}))
    elif case == "no remote":
        rows = [*codex_rows(base, ("a1", None)), ("/Users/o/src/app", {"repository_url": url})]
    elif case == "other remote":
        rows.append(("/Users/o/src/app", {"repository_url": "https://github.com/o/app2"}))
    else:
        git(repo, "remote", "add", "origin", "https://gitlab.com/o/app.git")
        rows.append((str(repo), {}))
    assert store_roots(rows)(str(base / "a1" / "app")) == str(base / "app")


@pytest.mark.parametrize(
    "config",
    [
        b"\xff\xfe\x00garbage",
        b'[remote "origin"]\n',  # no url
        b'[remote "upstream"]\n\turl = https://github.com/o/app.git\n',
        b"[core]\n" + b"x" * 200_000 + b'\n[remote "origin"]\n\turl = https://github.com/o/app\n',
    ],
)
def test_a_hostile_git_config_joins_nothing_and_raises_nothing(
    tmp_path: Path, config: bytes
) -> None:
    checkout = tmp_path / "src" / "app"
    (checkout / ".git").mkdir(parents=True)
    (checkout / ".git" / "config").write_bytes(config)
    base = tmp_path / ".codex" / "worktrees"
    rows = codex_rows(base, ("a1", "https://github.com/o/app"))
    rows += [(str(checkout), {}), ("\x00bad", "{not json"), (None, None)]
    assert store_roots(rows)(str(base / "a1" / "app")) == str(base / "app")
