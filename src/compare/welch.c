/* Welch's t-test and the Student t distribution it needs (welch.h).
 * The incomplete beta function is evaluated by its continued fraction
 * (Lentz's method), on the side of the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges fast. */
#include "welch.h"

#include <float.h>
#include <math.h>

#define ALPHA 0.05

struct sample_summary summarize(const double *values, size_t n)
{
	struct sample_summary s = { n, NAN, NAN };
	if (!n)
		return s;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += values[i];
	s.mean = sum / (double)n;
	if (n < 2)
		return s;
	double squares = 0;
	for (size_t i = 0; i < n; i++)
		squares += (values[i] - s.mean) * (values[i] - s.mean);
	s.sd = sqrt(squares / (double)(n - 1));
	return s;
}

/* The continued fraction of I_x(a, b) without its prefactor: terms
 * d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) and
 * d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)). */
static double beta_fraction(double x, double a, double b)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double f = d;
	for (int m = 1; m <= 300; m++) {
		double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		for (int half = 0; half < 2; half++) {
			double term = half ? odd : even;
			d = 1 + term * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + term / c;
			if (fabs(c) < tiny)
				c = tiny;
			f *= c * d;
		}
		if (fabs(c * d - 1) < DBL_EPSILON)
			break;
	}
	return f;
}

double incomplete_beta(double x, double a, double b)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double log_front = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
			   b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(log_front) * beta_fraction(x, a, b) / a;
	return 1 - exp(log_front) * beta_fraction(1 - x, b, a) / b;
}

double student_two_sided_p(double t, double df)
{
	return incomplete_beta(df / (df + t * t), df / 2, 0.5);
}

/* Bisection on the two-sided p, which falls as t grows. */
double student_quantile(double q, double df)
{
	double want = 2 * (1 - q), low = 0, high = 1;
	while (student_two_sided_p(high, df) > want)
		high *= 2;
	for (int i = 0; i < 200 && high - low > 1e-12 * high; i++) {
		double mid = (low + high) / 2;
		if (student_two_sided_p(mid, df) > want)
			low = mid;
		else
			high = mid;
	}
	return (low + high) / 2;
}

struct welch welch_test(struct sample_summary a, struct sample_summary b)
{
	struct welch w = { b.mean - a.mean, NAN, NAN, NAN, NAN, NAN, NAN };
	if (a.n < 2 || b.n < 2)
		return w;
	double va = a.sd * a.sd / (double)a.n, vb = b.sd * b.sd / (double)b.n;
	if (!(va + vb > 0))
		return w;
	w.se = sqrt(va + vb);
	w.t = w.delta / w.se;
	w.df = (va + vb) * (va + vb) /
	       (va * va / (double)(a.n - 1) + vb * vb / (double)(b.n - 1));
	w.p = student_two_sided_p(w.t, w.df);
	double half = student_quantile(1 - ALPHA / 2, w.df) * w.se;
	w.low = w.delta - half;
	w.high = w.delta + half;
	return w;
}

bool welch_significant(const struct welch *w)
{
	return !isnan(w->p) && w->p < ALPHA;
}
