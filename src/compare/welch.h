/* Welch's t-test: do two small samples (the runs of each side) have
 * different means, without assuming equal variances?  The comparison of
 * several runs a side (runs.h) and its tests use it; docs/compare.md
 * says why this test.
 *
 * t  = (mean_b - mean_a) / se,  se = sqrt(var_a / n_a + var_b / n_b)
 * df = se^4 / ((var_a / n_a)^2 / (n_a - 1) + (var_b / n_b)^2 / (n_b - 1))
 *      (Welch-Satterthwaite)
 * p  = P(|T_df| >= |t|), two-sided, from the regularized incomplete beta
 *      function: p = I_{df / (df + t^2)}(df / 2, 1 / 2).
 * The 95 % interval of the difference is delta +- t_{0.975, df} * se. */
#ifndef WPROF_WELCH_H
#define WPROF_WELCH_H

#include <stdbool.h>
#include <stddef.h>

/* The mean and the sample standard deviation (n - 1) of n values; the
 * deviation is NAN for fewer than two values. */
struct sample_summary {
	size_t n;
	double mean, sd;
};

struct sample_summary summarize(const double *values, size_t n);

struct welch {
	double delta;           /* mean of b - mean of a */
	double se, t, df;       /* NAN where untestable */
	double p;               /* two-sided; NAN where untestable */
	double low, high;       /* the 95 % interval of delta; NAN likewise */
};

/* Untestable (all NAN but delta) when a side has fewer than two values
 * or neither side varies (se is 0): there is no spread to weigh the
 * difference against. */
struct welch welch_test(struct sample_summary a, struct sample_summary b);

/* p < 0.05: the 95 % interval excludes 0.  False where untestable. */
bool welch_significant(const struct welch *w);

/* I_x(a, b), the regularized incomplete beta function, for a, b > 0 and
 * 0 <= x <= 1. */
double incomplete_beta(double x, double a, double b);

/* P(|T| >= t) for Student's t with df degrees of freedom (df > 0). */
double student_two_sided_p(double t, double df);

/* The t with P(T <= t) = q, for 0.5 <= q < 1. */
double student_quantile(double q, double df);

#endif
