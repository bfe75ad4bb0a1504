// Range reduction plus short series; see det_math.h for why these exist.
#include "core/det_math.h"

#include <cmath>
#include <limits>

namespace tp::det {

namespace {
constexpr double kLn2 = 0.693147180559945309417232121458;
constexpr double kPi = 3.14159265358979323846264338328;
constexpr double kHalfPi = kPi / 2;
}  // namespace

double exp(double x) {
  if (x != x) return x;
  if (x > 709.0) return std::numeric_limits<double>::infinity();
  if (x < -745.0) return 0.0;
  // x = k ln2 + r with |r| <= ln2/2, then exp(r) by Taylor series (r^20/20! < 1e-25).
  const double k = std::floor(x / kLn2 + 0.5);
  const double r = x - k * kLn2;
  double term = 1.0, sum = 1.0;
  for (int i = 1; i <= 20; ++i) {
    term *= r / i;
    sum += term;
  }
  return std::ldexp(sum, static_cast<int>(k));  // exact scaling by 2^k
}

double log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1), exact
  if (m < 0.70710678118654752) {
    m *= 2.0;
    --e;
  }
  // log(m) = 2 atanh(t), t = (m-1)/(m+1), |t| <= 0.1716: the odd series converges fast.
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double term = t, sum = 0.0;
  for (int i = 1; i <= 41; i += 2) {
    sum += term / i;
    term *= t2;
  }
  return 2.0 * sum + e * kLn2;
}

namespace {
// sin(r) and cos(r) for |r| <= pi/4 by Taylor series.
double sin_small(double r) {
  const double r2 = r * r;
  double term = r, sum = r;
  for (int i = 1; i <= 12; ++i) {
    term *= -r2 / ((2 * i) * (2 * i + 1));
    sum += term;
  }
  return sum;
}
double cos_small(double r) {
  const double r2 = r * r;
  double term = 1.0, sum = 1.0;
  for (int i = 1; i <= 12; ++i) {
    term *= -r2 / ((2 * i - 1) * (2 * i));
    sum += term;
  }
  return sum;
}
}  // namespace

double sin(double x) {
  // x = q pi/2 + r; the reduction loses accuracy only for |x| far beyond any table we build.
  const double q = std::floor(x / kHalfPi + 0.5);
  const double r = x - q * kHalfPi;
  switch (static_cast<long long>(q) & 3) {
    case 0:
      return sin_small(r);
    case 1:
      return cos_small(r);
    case 2:
      return -sin_small(r);
    default:
      return -cos_small(r);
  }
}

double cos(double x) { return sin(x + kHalfPi); }

double pow(double base, double exponent) { return exp(exponent * log(base)); }

}  // namespace tp::det
