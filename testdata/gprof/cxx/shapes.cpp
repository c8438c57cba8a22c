#include <cstdio>
#include <vector>

namespace geo {
namespace detail {
template <typename T>
T dot(const std::vector<T> &a, const std::vector<T> &b)
{
    T s = 0;
    for (size_t i = 0; i < a.size(); i++)
        s += a[i] * b[i];
    return s;
}
} // namespace detail

template <typename T, int N>
struct Poly {
    std::vector<T> c;
    Poly() : c(N, T(1)) {}
    __attribute__((noinline)) T eval(T x) const
    {
        T r = 0;
        for (int i = N - 1; i >= 0; i--)
            r = r * x + c[i];
        return r;
    }
};

class Accum {
public:
    __attribute__((noinline)) void add(double v) { total_ += v; }
    double total() const { return total_; }
private:
    double total_ = 0;
};
} // namespace geo

__attribute__((noinline)) static double churn(int reps)
{
    geo::Poly<double, 16> p;
    geo::Accum acc;
    std::vector<double> a(256, 0.5), b(256, 2.0);
    for (int i = 0; i < reps; i++) {
        acc.add(p.eval(i * 1e-6));
        acc.add(geo::detail::dot(a, b));
    }
    return acc.total();
}

int main()
{
    std::vector<long> v(1000, 3), w(1000, 4);
    long s = 0;
    for (int i = 0; i < 20000; i++)
        s += geo::detail::dot(v, w);
    std::printf("%f %ld\n", churn(200000), s);
    return 0;
}
