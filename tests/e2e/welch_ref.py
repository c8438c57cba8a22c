"""Welch's t-test worked out independently of wprof-tui's code, for the
tests that check its numbers: Student's t density integrated numerically
(Simpson's rule), not the continued fraction wprof-tui uses."""
import math


def t_density(x, df):
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(x * x / df))


def t_central(t, df, steps=20000):
    """P(-t < T < t) by Simpson's rule on [0, t]."""
    h = t / steps
    s = t_density(0, df) + t_density(t, df)
    for i in range(1, steps):
        s += (4 if i % 2 else 2) * t_density(i * h, df)
    return 2 * s * h / 3


def t_quantile_975(df):
    low, high = 0.0, 50.0
    for _ in range(60):
        mid = (low + high) / 2
        if t_central(mid, df, 4000) < 0.95:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def welch(a, b):
    na, nb = len(a), len(b)
    ma, mb = sum(a) / na, sum(b) / nb
    va = sum((x - ma) ** 2 for x in a) / (na - 1)
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1)
    se2 = va / na + vb / nb
    se = math.sqrt(se2)
    t = (mb - ma) / se
    df = se2 ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    p = 1 - t_central(abs(t), df)
    half = t_quantile_975(df) * se
    return dict(mean_a=ma, mean_b=mb, sd_a=math.sqrt(va), sd_b=math.sqrt(vb),
                delta=mb - ma, t=t, df=df, p=p, low=mb - ma - half, high=mb - ma + half)
