"""Task recurrence measured against hand-labelled families of real requests (issue #14).

    .venv/bin/python bench/recurrence_real.py [--thresholds 0.15,0.2,0.3] [--cross-project]
                                              [--show]

Harvests and mines the labelled real transcripts as `bench/mining_real.py` does, once per
similarity threshold, and compares the task clusters with `families.toml` next to the
labels: groups of requests (labelled `new_task` turns) that a person labelled one job
asked again ("/release patch" and "/release minor"; "fix the failing tests" in two
sessions); every other request is a job of its own. The synthetic paraphrase set
(`bench/mining.py`) says how well phrasings of one request are grouped; this says what
the clustering does with what people really typed: long requests about one code base,
screenshots, saved prompts.

For each threshold (and the default scope, one project; `--cross-project` for all):

* pairwise precision / recall over the labelled requests that open an episode: pairs in
  one cluster that are one family, and family pairs the clustering put together (pairs
  within one project only, unless `--cross-project`; the scope never joins others);
* recurring clusters (the ones `sleepd tasks list` counts as recurring: two episodes or
  more from two sessions or more) and how many of them are one job: every labelled
  request in it is of one family (a cluster with one labelled request is not judged);
* recurring jobs found: the families with requests in two sessions or more of one
  project, and how many of them a recurring cluster holds (two of its requests or more,
  from two sessions or more).

`--show` lists each recurring cluster's labelled requests with their families.
`--growing` also mines the history as the daemon would have: each transcript put in
place on the day of its first record, harvested and mined at 03:00 the next day, oldest
day first (clustering is online: a request joins the cluster whose centroid is nearest
as the store stands that night), and prints that reading's figures on a second line.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from mining_real import FIXTURES, Predictions, load_labels, predict  # noqa: E402

from sleepd.config import Config  # noqa: E402

Key = tuple[str, int]


@dataclass
class Scores:
    threshold: float
    precision: float
    recall: float
    pairs_said: int
    pairs_gold: int
    recurring: int
    recurring_one_job: int
    recurring_judged: int
    jobs: int
    jobs_found: int


def load_families(fixtures: Path) -> dict[Key, str]:
    """`families.toml` → (transcript, line) of each request in a family → its name."""
    data = tomllib.loads((fixtures / "families.toml").read_text(encoding="utf-8"))
    family_of: dict[Key, str] = {}
    for family in data.get("families", []):
        for member in family["members"]:
            transcript, line = member.rsplit(":", 1)
            family_of[(transcript, int(line))] = str(family["name"])
    return family_of


def score(
    pred: Predictions,
    requests: dict[Key, str],
    family_of: dict[Key, str],
    *,
    threshold: float,
    cross_project: bool,
) -> Scores:
    """Compare the clusters of the labelled requests with their families."""
    opened = [key for key in requests if key in pred.clusters]
    said = gold = both = 0
    for a, b in combinations(opened, 2):
        if not cross_project and pred.projects.get(a) != pred.projects.get(b):
            continue
        together = pred.clusters[a] == pred.clusters[b]
        one_job = a in family_of and family_of.get(a) == family_of.get(b)
        said += together
        gold += one_job
        both += together and one_job
    members: dict[int, list[Key]] = defaultdict(list)
    for key in opened:
        members[pred.clusters[key]].append(key)
    judged = [c for c in pred.recurring if len(members.get(c, [])) >= 2]
    one_job_clusters = [
        c
        for c in judged
        if all(k in family_of for k in members[c]) and len({family_of[k] for k in members[c]}) == 1
    ]
    # a recurring job: a family with requests in two sessions or more of one project
    sessions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key in opened:
        if key in family_of:
            scope = "*" if cross_project else pred.projects.get(key, "")
            sessions[(family_of[key], scope)].add(key[0])
    jobs = [job for job, files in sessions.items() if len(files) >= 2]
    found = 0
    for name, scope in jobs:
        for cluster in pred.recurring:
            held = [
                k
                for k in members.get(cluster, [])
                if family_of.get(k) == name and (cross_project or pred.projects.get(k, "") == scope)
            ]
            if len({k[0] for k in held}) >= 2:
                found += 1
                break
    return Scores(
        threshold,
        both / said if said else float("nan"),
        both / gold if gold else float("nan"),
        said,
        gold,
        len(pred.recurring),
        len(one_job_clusters),
        len(judged),
        len(jobs),
        found,
    )


def show(pred: Predictions, requests: dict[Key, str], family_of: dict[Key, str]) -> None:
    """Each recurring cluster's labelled requests, then each family's requests by cluster."""
    members: dict[int, list[Key]] = defaultdict(list)
    for key in requests:
        if key in pred.clusters:
            members[pred.clusters[key]].append(key)
    by_family: dict[str, list[Key]] = defaultdict(list)
    for key, name in family_of.items():
        by_family[name].append(key)
    for cluster in sorted(pred.recurring):
        keys = members.get(cluster, [])
        if not keys:
            continue
        print(f"  recurring cluster {cluster}: {len(keys)} labelled requests")
        for key in keys:
            name = Path(key[0]).name.split("__")[0]
            family = family_of.get(key, "(a job of its own)")
            print(f"    {name}:{key[1]} [{family}] {requests[key][:90]!r}")
    for family, keys in sorted(by_family.items()):
        print(f"  family {family!r}:")
        for key in sorted(keys):
            found = pred.clusters.get(key)
            where = "no episode" if found is None else f"cluster {found}"
            mark = " (recurring)" if found in pred.recurring else ""
            name = Path(key[0]).name.split("__")[0]
            print(f"    {name}:{key[1]} {where}{mark} {requests[key][:70]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--thresholds", default="0.15,0.2,0.25,0.3,0.35,0.4")
    parser.add_argument("--cross-project", action="store_true")
    parser.add_argument("--show", action="store_true", help="list each recurring cluster")
    parser.add_argument(
        "--growing",
        action="store_true",
        help="also mine the history night by night as it arrived, and print both readings",
    )
    args = parser.parse_args()
    family_of = load_families(args.fixtures)
    requests = {
        (lab.transcript, int(turn["line"])): str(turn["text"])
        for lab in load_labels(args.fixtures)
        for turn in lab.turns
        if turn["kind"] == "new_task"
    }
    unknown = [key for key in family_of if key not in requests]
    if unknown:
        sys.exit(f"families.toml names {len(unknown)} requests no label marks new_task")
    families = len(set(family_of.values()))
    scope = "all projects" if args.cross_project else "one project"
    print(
        f"{len(requests)} labelled requests; {len(family_of)} of them in {families} "
        f"families of one job asked again; scope: {scope}"
    )
    print(
        "threshold  pair precision  pair recall  (pairs said / one job)  "
        "recurring clusters (one job / judged)  recurring jobs found"
    )
    for threshold in (float(t) for t in args.thresholds.split(",")):
        for growing in (False, True) if args.growing else (False,):
            cfg = Config()
            cfg.mining.similarity_threshold = threshold
            cfg.mining.cross_project = args.cross_project
            with contextlib.redirect_stdout(io.StringIO()):
                pred = predict(args.fixtures, cfg=cfg, growing=growing)
            s = score(
                pred, requests, family_of, threshold=threshold, cross_project=args.cross_project
            )
            how = f"  night by night ({pred.nights} nights, then one pass)" if growing else ""
            print(
                f"{s.threshold:9.2f}  {s.precision:14.2f}  {s.recall:11.2f}  "
                f"({s.pairs_said} / {s.pairs_gold}){'':>10}  {s.recurring:5d} "
                f"({s.recurring_one_job} / {s.recurring_judged}){'':>20}  "
                f"{s.jobs_found} of {s.jobs}{how}"
            )
            if args.show:
                show(pred, requests, family_of)


if __name__ == "__main__":
    main()
