/* src/compare/welch.c against references worked out by hand: the closed
 * forms of Student's t for 1, 2 and 4 degrees of freedom, the incomplete
 * beta function where it is a polynomial, textbook table values, and two
 * Welch tests computed step by step below. */
#include <math.h>

#include "base/util.h"
#include "check.h"
#include "compare/runs.h"
#include "compare/welch.h"

static void test_incomplete_beta(void)
{
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b;
	 * I_{1/2}(a, a) = 1/2 by symmetry. */
	const double xs[] = { 0.01, 0.2, 0.5, 0.7, 0.99 };
	for (size_t i = 0; i < ARRAY_LEN(xs); i++) {
		double x = xs[i];
		CHECK_CLOSE(incomplete_beta(x, 1, 1), x, "I_x(1,1)");
		CHECK_CLOSE(incomplete_beta(x, 3, 1), x * x * x, "I_x(3,1)");
		CHECK_CLOSE(incomplete_beta(x, 1, 4), 1 - pow(1 - x, 4), "I_x(1,4)");
	}
	CHECK_CLOSE(incomplete_beta(0.5, 7.5, 7.5), 0.5, "I_1/2(a,a)");
	CHECK(incomplete_beta(0, 2, 3) == 0);
	CHECK(incomplete_beta(1, 2, 3) == 1);
}

/* Student's t in closed form: df 1 is Cauchy, P(|T| >= t) = 1 - 2/pi
 * atan t; df 2: 1 - t / sqrt(2 + t^2); df 4: 2 (1 - F(t)) with
 * F(t) = 1/2 + (3 t / 8) / sqrt(1 + t^2/4) * (1 - t^2 / (12 (1 + t^2/4))). */
static double df4_two_sided(double t)
{
	double k = 1 + t * t / 4;
	return 2 * (0.5 - 3 * t / 8 / sqrt(k) * (1 - t * t / (12 * k)));
}

static void test_student(void)
{
	const double ts[] = { 0.1, 0.8, 1.5, 2.7, 6.0 };
	for (size_t i = 0; i < ARRAY_LEN(ts); i++) {
		double t = ts[i];
		CHECK_CLOSE(student_two_sided_p(t, 1), 1 - 2 / M_PI * atan(t), "df 1");
		CHECK_CLOSE(student_two_sided_p(t, 2), 1 - t / sqrt(2 + t * t), "df 2");
		CHECK_CLOSE(student_two_sided_p(t, 4), df4_two_sided(t), "df 4");
		CHECK_CLOSE(student_two_sided_p(-t, 4), df4_two_sided(t), "symmetric");
	}
	/* Quantiles: df 1, tan(pi (q - 1/2)); df 2, a sqrt(2 / (1 - a^2)) with
	 * a = 2q - 1; the rest from a t table (3 decimals). */
	CHECK_CLOSE(student_quantile(0.975, 1), tan(M_PI * 0.475), "t 0.975, 1");
	CHECK_CLOSE(student_quantile(0.975, 2), 0.95 * sqrt(2 / (1 - 0.95 * 0.95)), "t 0.975, 2");
	const struct { double df, t; } table[] = {
		{ 5, 2.571 }, { 10, 2.228 }, { 30, 2.042 }, { 120, 1.980 },
	};
	for (size_t i = 0; i < ARRAY_LEN(table); i++)
		CHECK_MSG(fabs(student_quantile(0.975, table[i].df) - table[i].t) < 0.0006,
			  "t 0.975 with df %g: %g, table %g", table[i].df,
			  student_quantile(0.975, table[i].df), table[i].t);
}

static void test_summary(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct sample_summary s = summarize(v, ARRAY_LEN(v));
	CHECK(s.n == 8);
	CHECK_CLOSE(s.mean, 5, "mean");
	CHECK_CLOSE(s.sd, sqrt(32.0 / 7), "sd: squares 32 over n - 1");
	s = summarize(v, 1);
	CHECK_CLOSE(s.mean, 2, "one value");
	CHECK(isnan(s.sd));
}

static void test_welch(void)
{
	/* a = {1, 3}, b = {4, 6}: variances 2 and 2, se = sqrt(2/2 + 2/2) =
	 * sqrt 2, t = 3 / sqrt 2, df = (1 + 1)^2 / (1/1 + 1/1) = 2, so
	 * p = 1 - t / sqrt(2 + t^2) = 1 - sqrt(4.5 / 6.5), and the interval
	 * is 3 +- t_{0.975, 2} sqrt 2 with t_{0.975, 2} = 0.95 sqrt(2 / 0.0975). */
	const double a[] = { 1, 3 }, b[] = { 4, 6 };
	struct welch w = welch_test(summarize(a, 2), summarize(b, 2));
	CHECK_CLOSE(w.delta, 3, "delta");
	CHECK_CLOSE(w.se, sqrt(2), "se");
	CHECK_CLOSE(w.t, 3 / sqrt(2), "t");
	CHECK_CLOSE(w.df, 2, "df");
	CHECK_CLOSE(w.p, 1 - sqrt(4.5 / 6.5), "p");
	double half = 0.95 * sqrt(2 / 0.0975) * sqrt(2);
	CHECK_CLOSE(w.low, 3 - half, "low");
	CHECK_CLOSE(w.high, 3 + half, "high");
	CHECK(!welch_significant(&w));

	/* Unequal variances: a = 1..5 (mean 3, variance 2.5), b = 2, 4, ..
	 * 10 (mean 6, variance 10).  se^2 = 0.5 + 2 = 2.5, t = 3 / sqrt 2.5,
	 * df = 2.5^2 / (0.5^2 / 4 + 2^2 / 4) = 6.25 / 1.0625; a t table puts
	 * t = 1.897 with about 6 df between p 0.10 (1.943) and 0.20 (1.440). */
	const double c[] = { 1, 2, 3, 4, 5 }, d[] = { 2, 4, 6, 8, 10 };
	w = welch_test(summarize(c, 5), summarize(d, 5));
	CHECK_CLOSE(w.t, 3 / sqrt(2.5), "t");
	CHECK_CLOSE(w.df, 6.25 / 1.0625, "df");
	CHECK_MSG(w.p > 0.10 && w.p < 0.12, "p %g", w.p);

	/* Far apart with little spread: significant. */
	const double e[] = { 10, 11, 10.5 }, f[] = { 20, 21, 20.5 };
	w = welch_test(summarize(e, 3), summarize(f, 3));
	CHECK(welch_significant(&w));
	CHECK(w.low > 0);

	/* One run a side, or no spread at all: no test, no guess. */
	w = welch_test(summarize(e, 1), summarize(f, 3));
	CHECK_CLOSE(w.delta, 20.5 - 10, "delta of one run");
	CHECK(isnan(w.p) && isnan(w.low) && isnan(w.high) && !welch_significant(&w));
	const double g[] = { 5, 5 }, h[] = { 7, 7 };
	w = welch_test(summarize(g, 2), summarize(h, 2));
	CHECK(isnan(w.p) && !welch_significant(&w));
}

/* The explorer's colours (the delta layout's red and green, pane 5's
 * frames), worked by hand.  Both examples have 3 runs a side with equal
 * variances v, so se = sqrt(2 v / 3) and df = (2v/3)^2 / (2 (v/3)^2 / 2)
 * = 4; a t table gives t_{0.975, 4} = 2.776445. */
static void test_colours(void)
{
	/* Slower for real: base {10, 12, 11}, new {20, 21, 19}: means 11 and
	 * 20, v = 1, se = 0.816497, t = 9 / se = 11.02, and the interval
	 * 9 +- 2.776445 * 0.816497 = [6.733, 11.267] excludes 0. */
	const double a[] = { 10, 12, 11 }, b[] = { 20, 21, 19 };
	struct welch w = welch_test(summarize(a, 3), summarize(b, 3));
	CHECK_CLOSE(w.df, 4, "df");
	CHECK_MSG(fabs(w.low - 6.7330) < 1e-3 && fabs(w.high - 11.2670) < 1e-3,
		  "interval [%g, %g]", w.low, w.high);
	int verdict = runs_significance(&w);
	CHECK(verdict == 1);
	CHECK(runs_colours_change(verdict, w.delta, 9));    /* the row */
	CHECK(runs_colours_change(verdict, w.delta, 0.5));  /* a path slower too */
	CHECK(!runs_colours_change(verdict, w.delta, -2));  /* a path faster: noise */
	CHECK(!runs_colours_change(verdict, w.delta, 0));   /* unchanged */

	/* Noise: base {10, 14, 12}, new {11, 15, 13}: means 12 and 13, v = 4,
	 * se = 1.632993, t = 0.61, and 1 +- 2.776445 * 1.632993 = [-3.534,
	 * 5.534] holds 0: drawn neutral, whichever way a path went. */
	const double c[] = { 10, 14, 12 }, d[] = { 11, 15, 13 };
	w = welch_test(summarize(c, 3), summarize(d, 3));
	CHECK_MSG(fabs(w.low + 3.5339) < 1e-3 && fabs(w.high - 5.5339) < 1e-3,
		  "interval [%g, %g]", w.low, w.high);
	verdict = runs_significance(&w);
	CHECK(verdict == 0);
	CHECK(!runs_colours_change(verdict, w.delta, 1));
	CHECK(!runs_colours_change(verdict, w.delta, -1));

	/* One run a side: nothing to weigh a change against, so every change
	 * is coloured, as when two profiles are compared. */
	w = welch_test(summarize(a, 1), summarize(b, 1));
	verdict = runs_significance(&w);
	CHECK(verdict == -1);
	CHECK(runs_colours_change(verdict, w.delta, 10));
	CHECK(runs_colours_change(verdict, w.delta, -3));
	CHECK(!runs_colours_change(verdict, w.delta, 0));
}

int main(void)
{
	test_incomplete_beta();
	test_student();
	test_summary();
	test_welch();
	test_colours();
	return check_done();
}
