"""How the paper's algorithms scale, beside Table 1 of Baffier et al. Not a test: it prints figures.

    .venv/bin/python bench/paper.py            # the full run (about 3 minutes on 2 shared cores)
    .venv/bin/python bench/paper.py --quick    # a smoke run (a few seconds)
    .venv/bin/python bench/paper.py --json     # the same figures as JSON

Table 1 of "Hanabi is NP-complete, Even for Cheaters who Look at Their Cards" gives: r = 1, greedy,
O(N) = O(cn) (Lemma 1); c = 1, lazy, O(N + n log h) (Theorem 4); the general case, a dynamic
programme, O(N h c^h n^(h+c-1)) (Theorem 6); h = 2, r = 2, NP-complete (Theorem 7). For each row
this measures games/analysis on growing instances:

* baseline: a plain O(N) pass over the same card sequence (count the cards of each colour),
  timed in the same run, interleaved with the algorithm, for the same N. Each algorithm's time is
  also given as a ratio to it: a ratio that stays put while N doubles is linear growth.
* greedy (r = 1): random permutations of the c·n cards, c = 8, N doubling from 1,024 to 65,536,
  with h = overlap_width (the least winnable hand), so the whole sequence is processed.
* lazy (c = 1): r = 3, n = N/2, h = 10, N doubling from 1,024 to 65,536. The instances are
  winnable by construction (values 1..n in order but shuffled within blocks of h + 1, which a hand
  of h absorbs, plus N - n spare copies at random places), so the filter and the play run to the
  end. A second table varies h at the largest N, to weigh the n log h heap term.
* dp (Theorem 6): (a) N doubling from 8 to 512 at h = 2, c = 2, n = 4 (r = 2 allows only
  N <= c·n·r = 16, so r is raised to N / (c·n) beyond); (b) h = 0..4 at N = 32, c = 2, n = 4,
  r = 4 (one card sequence); (c) c = 1..3 at N = 48, n = 4, h = 2 (r = N / (c·n)). Each row gives
  the time of dp.solve with and without pruning, table_entries for both and paper_bound (the
  proof's count of nontrivial entries). The instances are the first seeds of
  tests/analysis/instances.random_instance that search.solve finds winnable (for (b): winnable
  with h = 0, hence with every h).
* Theorem 7: the reduction's instances for v = 3 and m = 1..8 clauses (the 8 sign patterns of
  (x1, x2, x3) in turn, so m = 8 is unsatisfiable): search.solve on all of them, and dp.solve
  for m = 1, 2, ... in a child process until --reduction-seconds of CPU time (over all m) run
  out; the kernel stops the child at its limit (RLIMIT_CPU), whatever the machine's load.
* search: random standard decks (5 colours, values 1..5 with 3, 2, 2, 2, 1 copies) at h = 10
  and 15: median, p90 and max of the time and of the nodes per deck.

Times are CPU time of this process (time.process_time), so the slices other jobs take of the
shared cores are not counted. The garbage collector is disabled during each timed call, as timeit
does, and run before it (before each hand size only, for the real decks' sub-millisecond
searches). Every time is the median of --repeat calls (one call for the reduction's DP). The
machine is shared: absolute figures vary from run to run, compare ratios.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import multiprocessing
import platform
import random
import resource
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.analysis import dp, greedy, lazy, reduction, search  # noqa: E402
from games.analysis.solitaire import Instance, check_play_sequence  # noqa: E402
from tests.analysis.instances import (  # noqa: E402
    random_instance,
    random_permutation_instance,
    standard_deck,
)

# -- timing ----------------------------------------------------------------------------------


def cpu_time(function: Callable[[], object], collect: bool = True) -> float:
    """CPU seconds of one call, with the garbage collector run before (unless ``collect`` is
    false: for calls of a millisecond or less, which a collection would outweigh) and off
    during it."""
    if collect:
        gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        function()
        return time.process_time() - started
    finally:
        gc.enable()


def medians(
    repeat: int, functions: dict[str, Callable[[], object]], collect: bool = True
) -> dict[str, float]:
    """The median CPU seconds of each function, the calls interleaved round-robin so that each
    function meets the same conditions on the shared machine."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            times[name].append(cpu_time(function, collect))
    return {name: statistics.median(values) for name, values in times.items()}


def baseline(instance: Instance) -> list[int]:
    """The plain O(N) pass every ratio is taken against: count the cards of each colour."""
    counts = [0] * (instance.c + 1)
    for _, colour in instance.cards:
        counts[colour] += 1
    return counts


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` in 0..1)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


# -- instances -------------------------------------------------------------------------------


def winnable_one_colour(rng: random.Random, length: int, n: int, r: int, h: int) -> Instance:
    """A c = 1 instance of ``length`` cards, multiplicity <= r, that a hand of h wins.

    Its backbone is the values 1..n in increasing order of blocks of h + 1 values, each block
    shuffled (at worst a block is reversed: h cards stored until its first value comes); the
    other ``length - n`` cards are spare copies (at most r - 1 of each value) at random places.
    """
    if not n <= length <= n * r:
        raise ValueError(f"need n <= length <= n*r, not n={n}, length={length}, r={r}")
    backbone: list[int] = []
    for start in range(1, n + 1, h + 1):
        block = list(range(start, min(start + h, n) + 1))
        rng.shuffle(block)
        backbone += block
    spare = [value for value in range(1, n + 1) for _ in range(r - 1)]
    rng.shuffle(spare)
    spare = spare[: length - n]
    places = set(rng.sample(range(length), n))
    values = iter(backbone)
    extras = iter(spare)
    cards = [(next(values) if index in places else next(extras), 1) for index in range(length)]
    return Instance(tuple(cards), h, n, 1)


def first_winnable(make: Callable[[random.Random], Instance], tries: int = 500) -> Instance:
    """The instance of the first seed 0, 1, ... that the exact search finds winnable."""
    for seed in range(tries):
        instance = make(random.Random(seed))
        if search.solve(instance).winnable:
            return instance
    raise RuntimeError(f"no winnable instance in {tries} seeds")


# -- the sections ----------------------------------------------------------------------------


def bench_greedy(sizes: list[int], repeat: int) -> list[dict]:
    c = 8
    rows = []
    for size in sizes:
        unsized = random_permutation_instance(random.Random(size), size // c, c, 0)
        instance = replace(unsized, h=greedy.overlap_width(unsized))
        steps = greedy.solve(instance)
        assert steps is not None
        check_play_sequence(instance, steps)
        times = medians(
            repeat,
            {
                "baseline": lambda instance=instance: baseline(instance),
                "greedy": lambda instance=instance: greedy.solve(instance),
                "width": lambda instance=instance: greedy.overlap_width(instance),
            },
        )
        rows.append(
            {
                "N": instance.N,
                "c": c,
                "n": instance.n,
                "h": instance.h,
                "baseline_ms": times["baseline"] * 1e3,
                "greedy_ms": times["greedy"] * 1e3,
                "greedy_us_per_card": times["greedy"] / instance.N * 1e6,
                "greedy_ratio": times["greedy"] / times["baseline"],
                "overlap_width_ms": times["width"] * 1e3,
                "overlap_width_ratio": times["width"] / times["baseline"],
            }
        )
    return rows


def lazy_row(instance: Instance, repeat: int) -> dict:
    steps = lazy.solve(instance)
    assert steps is not None
    check_play_sequence(instance, steps)
    kept = lazy.filter_useless(instance)
    assert kept is not None
    times = medians(
        repeat,
        {
            "baseline": lambda: baseline(instance),
            "lazy": lambda: lazy.solve(instance),
            "filter": lambda: lazy.filter_useless(instance),
        },
    )
    return {
        "N": instance.N,
        "n": instance.n,
        "r": instance.r,
        "h": instance.h,
        "kept": len(kept),
        "n_log_h_over_N": instance.n * math.log2(instance.h + 1) / instance.N,
        "baseline_ms": times["baseline"] * 1e3,
        "lazy_ms": times["lazy"] * 1e3,
        "lazy_us_per_card": times["lazy"] / instance.N * 1e6,
        "lazy_ratio": times["lazy"] / times["baseline"],
        "filter_ms": times["filter"] * 1e3,
        "filter_ratio": times["filter"] / times["baseline"],
    }


def bench_lazy(sizes: list[int], hands: list[int], repeat: int) -> dict:
    r, h = 3, 10
    growth = [
        lazy_row(winnable_one_colour(random.Random(size), size, size // 2, r, h), repeat)
        for size in sizes
    ]
    size = sizes[-1]
    by_h = [
        lazy_row(winnable_one_colour(random.Random(size), size, size // 2, r, hand), repeat)
        for hand in hands
    ]
    return {"growth": growth, "by_h": by_h}


def dp_row(instance: Instance, repeat: int, unpruned: bool) -> dict:
    steps = dp.solve(instance)
    if steps is not None:
        check_play_sequence(instance, steps)
    functions: dict[str, Callable[[], object]] = {
        "baseline": lambda: baseline(instance),
        "pruned": lambda: dp.solve(instance, prune=True),
    }
    if unpruned:
        functions["unpruned"] = lambda: dp.solve(instance, prune=False)
    times = medians(repeat, functions)
    row = {
        "N": instance.N,
        "c": instance.c,
        "n": instance.n,
        "h": instance.h,
        "r": instance.r,
        "winnable": steps is not None,
        "baseline_ms": times["baseline"] * 1e3,
        "pruned_ms": times["pruned"] * 1e3,
        "pruned_entries": dp.table_entries(instance, prune=True),
        "paper_bound": dp.paper_bound(instance),
    }
    row["pruned_ratio"] = times["pruned"] / times["baseline"]
    row["pruned_us_per_entry"] = times["pruned"] / max(row["pruned_entries"], 1) * 1e6
    if unpruned:
        row["unpruned_ms"] = times["unpruned"] * 1e3
        row["unpruned_entries"] = dp.table_entries(instance, prune=False)
        row["unpruned_ratio"] = times["unpruned"] / times["baseline"]
        row["unpruned_us_per_entry"] = times["unpruned"] / row["unpruned_entries"] * 1e6
    assert row.get("unpruned_entries", row["pruned_entries"]) <= row["paper_bound"]
    return row


def bench_dp(sizes: list[int], hands: list[int], colours: list[int], repeat: int) -> dict:
    n, c, h = 4, 2, 2
    growth = []
    for size in sizes:
        r = max(2, size // (c * n))
        instance = first_winnable(
            lambda rng, r=r, size=size: random_instance(rng, n, c, r, h, length=size)
        )
        growth.append(dp_row(instance, repeat, unpruned=True))
    cards = first_winnable(lambda rng: random_instance(rng, n, c, 4, 0, length=32)).cards
    by_h = [dp_row(Instance(cards, hand, n, c), repeat, unpruned=True) for hand in hands]
    by_c = []
    size = 48
    for colours_count in colours:
        r = size // (colours_count * n)
        instance = first_winnable(
            lambda rng, k=colours_count, r=r: random_instance(rng, n, k, r, h, length=size)
        )
        by_c.append(dp_row(instance, repeat, unpruned=True))
    return {"growth": growth, "by_h": by_h, "by_c": by_c}


SIGN_PATTERNS = [
    tuple(sign * variable for sign, variable in zip(signs, (1, 2, 3), strict=True))
    for signs in itertools.product((1, -1), repeat=3)
]


def formula(m: int) -> reduction.Formula:
    """v = 3 and the first m of the 8 clauses on x1, x2, x3: unsatisfiable exactly at m = 8."""
    return reduction.Formula(3, tuple(SIGN_PATTERNS[:m]))


def _dp_child(m: int, cpu_limit: int, queue: multiprocessing.Queue) -> None:
    # The kernel stops this process (SIGXCPU) once it has used cpu_limit seconds of CPU.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))
    instance = reduction.instance_from_formula(formula(m))
    wall = time.perf_counter()
    steps: list = []
    cpu = cpu_time(lambda: steps.append(dp.solve(instance)))
    wall = time.perf_counter() - wall
    if steps[0] is not None:
        check_play_sequence(instance, steps[0])
    queue.put({"cpu_s": cpu, "wall_s": wall, "winnable": steps[0] is not None})


def reduction_dp(m: int, cpu_limit: int) -> dict:
    """dp.solve on the reduction's instance in a child process, stopped by the kernel after
    ``cpu_limit`` seconds of CPU time (a limit that does not depend on the machine's load)."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_dp_child, args=(m, cpu_limit, queue))
    started = time.perf_counter()
    child.start()
    child.join()
    if child.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):  # the soft, then the hard limit
        return {"stopped_at_cpu_s": cpu_limit, "wall_s": time.perf_counter() - started}
    if child.exitcode != 0:
        raise RuntimeError(f"dp.solve on the reduction with m={m} failed ({child.exitcode})")
    return queue.get(timeout=10)


def bench_reduction(clauses: list[int], repeat: int, dp_seconds: float) -> list[dict]:
    rows = []
    left = dp_seconds
    for m in clauses:
        f = formula(m)
        instance = reduction.instance_from_formula(f)
        satisfiable = reduction.satisfiable(f) is not None
        result = search.solve(instance)
        times = medians(
            repeat,
            {
                "baseline": lambda instance=instance: baseline(instance),
                "search": lambda instance=instance: search.solve(instance),
            },
        )
        row = {
            "m": m,
            "v": f.v,
            "N": instance.N,
            "c": instance.c,
            "n": instance.n,
            "h": instance.h,
            "r": instance.r,
            "satisfiable": satisfiable,
            "search_ms": times["search"] * 1e3,
            "search_ratio": times["search"] / times["baseline"],
            "search_nodes": result.nodes,
            "search_agrees": result.winnable == satisfiable,
            "dp": None,
        }
        if left >= 1:
            row["dp"] = reduction_dp(m, math.ceil(left))
            if "winnable" not in row["dp"]:
                left = 0  # stopped: a larger formula would not finish either
            else:
                left -= row["dp"]["cpu_s"]
                row["dp"]["agrees"] = row["dp"]["winnable"] == satisfiable
        rows.append(row)
    return rows


def bench_search(decks: int, hands: list[int], repeat: int) -> list[dict]:
    rows = []
    for h in hands:
        gc.collect()  # once per hand size: a collection would outweigh a call
        times, nodes, won = [], [], 0
        for seed in range(decks):
            instance = standard_deck(random.Random(seed), 5, h)
            result = search.solve(instance)
            assert result.winnable is not None
            won += bool(result.winnable)
            nodes.append(result.nodes)
            call = {"search": lambda instance=instance: search.solve(instance)}
            times.append(medians(repeat, call, collect=False)["search"])
        rows.append(
            {
                "h": h,
                "decks": decks,
                "winnable": won,
                "median_ms": statistics.median(times) * 1e3,
                "p90_ms": percentile(times, 0.9) * 1e3,
                "max_ms": max(times) * 1e3,
                "median_nodes": statistics.median(nodes),
                "p90_nodes": percentile(nodes, 0.9),
                "max_nodes": max(nodes),
            }
        )
    return rows


# -- output ----------------------------------------------------------------------------------


def table(headers: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + " ---: |" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def ms(value: float) -> str:
    return f"{value:,.3f}" if value < 1 else f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def ratio(value: float) -> str:
    return f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"


def print_tables(results: dict) -> None:
    print("# Baffier et al., Table 1: measured growth\n")
    print(
        f"Python {results['python']} on {results['machine']}; CPU time of this process, GC off"
        f" while timing; median of {results['repeat']} calls; baseline = one pass over the cards"
        " counting each colour, timed in the same run."
    )

    print("\n## r = 1: greedy, O(N) = O(cn) (Lemma 1)\n")
    print("c = 8, random permutations of the c·n cards, h = overlap_width (least winnable hand).\n")
    print(
        table(
            [
                "N",
                "n",
                "h = w",
                "baseline ms",
                "greedy ms",
                "µs/card",
                "greedy / baseline",
                "overlap_width ms",
                "overlap_width / baseline",
            ],
            [
                [
                    f"{row['N']:,}",
                    f"{row['n']:,}",
                    f"{row['h']:,}",
                    ms(row["baseline_ms"]),
                    ms(row["greedy_ms"]),
                    f"{row['greedy_us_per_card']:.2f}",
                    ratio(row["greedy_ratio"]),
                    ms(row["overlap_width_ms"]),
                    ratio(row["overlap_width_ratio"]),
                ]
                for row in results["greedy"]
            ],
        )
    )

    lazy_headers = [
        "N",
        "n",
        "r",
        "h",
        "n·log2(h+1) / N",
        "kept by filter",
        "baseline ms",
        "lazy ms",
        "µs/card",
        "lazy / baseline",
        "filter_useless ms",
        "filter / baseline",
    ]

    def lazy_cells(row: dict) -> list[object]:
        return [
            f"{row['N']:,}",
            f"{row['n']:,}",
            row["r"],
            f"{row['h']:,}",
            f"{row['n_log_h_over_N']:.2f}",
            f"{row['kept']:,}",
            ms(row["baseline_ms"]),
            ms(row["lazy_ms"]),
            f"{row['lazy_us_per_card']:.2f}",
            ratio(row["lazy_ratio"]),
            ms(row["filter_ms"]),
            ratio(row["filter_ratio"]),
        ]

    print("\n## c = 1: lazy, O(N + n log h) (Theorem 4)\n")
    print("Winnable by construction, n = N/2, r = 3; growth with N at h = 10:\n")
    print(table(lazy_headers, [lazy_cells(row) for row in results["lazy"]["growth"]]))
    print("\nThe n log h term: the largest N, h growing:\n")
    print(table(lazy_headers, [lazy_cells(row) for row in results["lazy"]["by_h"]]))

    dp_headers = [
        "N",
        "c",
        "n",
        "h",
        "r",
        "won",
        "paper_bound",
        "entries (prune)",
        "ms (prune)",
        "µs/entry",
        "entries (no prune)",
        "no prune / bound",
        "ms (no prune)",
        "µs/entry",
        "no prune / baseline",
    ]

    def dp_cells(row: dict) -> list[object]:
        return [
            row["N"],
            row["c"],
            row["n"],
            row["h"],
            row["r"],
            "yes" if row["winnable"] else "no",
            f"{row['paper_bound']:,}",
            f"{row['pruned_entries']:,}",
            ms(row["pruned_ms"]),
            f"{row['pruned_us_per_entry']:.1f}",
            f"{row['unpruned_entries']:,}",
            f"{row['unpruned_entries'] / row['paper_bound']:.2f}",
            ms(row["unpruned_ms"]),
            f"{row['unpruned_us_per_entry']:.1f}",
            ratio(row["unpruned_ratio"]),
        ]

    print("\n## General case: dynamic programme, O(N h c^h n^(h+c-1)) (Theorem 6)\n")
    print(
        "paper_bound = (N+1)·Σ_{i<=h} C(nc, i)·(n+1)^(c-1), the proof's count of nontrivial"
        " entries; time per entry is O(h).\n"
    )
    print(
        "(a) growth with N, h = 2, c = 2, n = 4; multiplicity at most 2 caps N at c·n·r = 16, so"
        " beyond it the multiplicity is at most N/8 (column r: the instance's own):\n"
    )
    print(table(dp_headers, [dp_cells(row) for row in results["dp"]["growth"]]))
    print("\n(b) growth with h, one sequence of N = 32 cards, c = 2, n = 4, r = 4:\n")
    print(table(dp_headers, [dp_cells(row) for row in results["dp"]["by_h"]]))
    print("\n(c) growth with c, N = 48, n = 4, h = 2, r = N/(c·n):\n")
    print(table(dp_headers, [dp_cells(row) for row in results["dp"]["by_c"]]))

    print("\n## h = 2, r = 2: NP-complete (Theorem 7), the reduction's instances\n")
    budget = results["reduction_dp_seconds"]
    where = (
        f"once per m in a child process, within {budget:g} s of CPU time over all m (the"
        " kernel stops the child at the limit; no larger m is tried after a stop)"
        if budget > 0
        else "not at all (--reduction-seconds 0, as in --quick)"
    )
    print(
        "v = 3, clauses: the first m of the 8 sign patterns of (x1, x2, x3), so only m = 8 is"
        f" unsatisfiable. dp.solve runs {where}.\n"
    )

    def dp_cell(row: dict) -> str:
        result = row["dp"]
        if result is None:
            return "not run"
        if "stopped_at_cpu_s" in result:
            return f"stopped at {result['stopped_at_cpu_s']} s CPU ({result['wall_s']:.0f} s wall)"
        return f"{result['cpu_s']:.1f} s CPU ({result['wall_s']:.0f} s wall)"

    def dp_agrees(row: dict) -> str:
        result = row["dp"]
        if result is None or "agrees" not in result:
            return "–"
        return "yes" if result["agrees"] else "NO"

    print(
        table(
            [
                "m",
                "N",
                "c",
                "n",
                "h",
                "r",
                "satisfiable",
                "search ms",
                "search nodes",
                "search / baseline",
                "search agrees",
                "dp.solve",
                "dp agrees",
            ],
            [
                [
                    row["m"],
                    row["N"],
                    row["c"],
                    row["n"],
                    row["h"],
                    row["r"],
                    "yes" if row["satisfiable"] else "no",
                    ms(row["search_ms"]),
                    f"{row['search_nodes']:,}",
                    ratio(row["search_ratio"]),
                    "yes" if row["search_agrees"] else "NO",
                    dp_cell(row),
                    dp_agrees(row),
                ]
                for row in results["reduction"]
            ],
        )
    )

    print("\n## Exact search on real decks (5 colours, n = 5, N = 50)\n")
    print(
        table(
            [
                "h",
                "decks",
                "winnable",
                "median ms",
                "p90 ms",
                "max ms",
                "median nodes",
                "p90 nodes",
                "max nodes",
            ],
            [
                [
                    row["h"],
                    row["decks"],
                    row["winnable"],
                    ms(row["median_ms"]),
                    ms(row["p90_ms"]),
                    ms(row["max_ms"]),
                    f"{row['median_nodes']:g}",
                    f"{row['p90_nodes']:g}",
                    f"{row['max_nodes']:g}",
                ]
                for row in results["search"]
            ],
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="calls per figure (median kept)")
    parser.add_argument("--decks", type=int, default=200, help="standard decks per hand size")
    parser.add_argument(
        "--reduction-seconds",
        type=float,
        default=55.0,
        help="CPU seconds for dp.solve on the reduction's instances, over all m",
    )
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    doublings = [1024 * 2**k for k in range(7)]  # 1,024 .. 65,536
    dp_sizes = [8 * 2**k for k in range(7)]  # 8 .. 512
    dp_hands, dp_colours = [0, 1, 2, 3, 4], [1, 2, 3]
    lazy_hands = [1, 10, 100, 1000, 10000]
    clauses = list(range(1, 9))
    if args.quick:
        args.repeat, args.decks, args.reduction_seconds = 3, 20, 0.0
        doublings = doublings[:3]
        dp_sizes, dp_hands, dp_colours = dp_sizes[:2], dp_hands[:2], dp_colours[:2]
        lazy_hands = lazy_hands[:3:2]
        clauses = clauses[:2]
    results: dict = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeat": args.repeat,
        "reduction_dp_seconds": args.reduction_seconds,
    }
    results["greedy"] = bench_greedy(doublings, args.repeat)
    results["lazy"] = bench_lazy(doublings, lazy_hands, args.repeat)
    results["dp"] = bench_dp(dp_sizes, dp_hands, dp_colours, args.repeat)
    results["reduction"] = bench_reduction(clauses, args.repeat, args.reduction_seconds)
    results["search"] = bench_search(args.decks, [10, 15], args.repeat)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print_tables(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
