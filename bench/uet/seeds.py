"""Agreement of two simulators over seeds: each one's mean tail, its standard error and the spread of one seed's tail,
and whether the means agree: within 5 %, or, where one simulator's spread exceeds 5 %, within two standard errors of
their difference. A run that failed, or left a flow or message unfinished, agrees with nothing."""
import math
import statistics

WITHIN = 0.05


def stats(tails):
    """Mean, standard error of the mean and spread (standard deviation over mean) of one simulator's tails."""
    mean = statistics.mean(tails)
    deviation = statistics.stdev(tails) if len(tails) > 1 else 0.0
    return mean, deviation / math.sqrt(len(tails)), deviation / mean if mean > 0 else 0.0


def verdict(theirs, ours, complete=True):
    """The verdict on two lists of tails, one per seed (htsim_uec's, trimswitch's), and what it rests on."""
    if not complete:
        return "no: a run failed or left flows unfinished"
    if not theirs or not ours:
        return "-"
    (a, se_a, spread_a), (b, se_b, spread_b) = stats(theirs), stats(ours)
    difference = (b - a) / a
    if abs(difference) <= WITHIN:
        return f"yes: {100 * difference:+.1f} %, within 5 %"
    two_se = 2 * math.hypot(se_a, se_b)
    if max(spread_a, spread_b) > WITHIN and abs(b - a) <= two_se:
        return f"yes: {b - a:+.1f} µs, within 2 SE ({two_se:.1f} µs)"
    if max(spread_a, spread_b) > WITHIN:
        return f"no: {b - a:+.1f} µs, beyond 2 SE ({two_se:.1f} µs)"
    return f"no: {100 * difference:+.1f} %, beyond 5 %"


def cell(tails):
    """One simulator's tails as the table gives them: mean ± standard error, and the spread of one seed."""
    if not tails:
        return "-"
    mean, se, spread = stats(tails)
    return f"{mean:.1f} ± {se:.1f} µs ({100 * spread:.1f} %)"
