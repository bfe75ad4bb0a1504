// Scalar reference kernels: the definitions the fast kernels must match. Every sum is in double
// and every transcendental is std:: in double, so these are as exact as f32 outputs can be.
#include "kernels/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tp::kernels::ref {

namespace {
double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }
constexpr double kGeluC = 1.5957691216057308;  // sqrt(8 / pi)
constexpr double kGeluA = 0.044715;
}  // namespace

void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
            float* C, int ldc, bool accumulate, const float* bias) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k) {
        const double a = trans_a == Trans::N ? A[i * lda + k] : A[k * lda + i];
        const double b = trans_b == Trans::N ? B[k * ldb + j] : B[j * ldb + k];
        acc += a * b;
      }
      if (bias) acc += bias[j];
      if (accumulate) acc += C[i * ldc + j];
      C[i * ldc + j] = static_cast<float>(acc);
    }
  }
}

void matvec(int rows, int N, int K, const float* x, int ldx, WeightView W, const float* bias, float* y, int ldy) {
  const auto weight = [&](std::size_t i) -> double {
    switch (W.dtype) {
      case DType::F32:
        return static_cast<const float*>(W.data)[i];
      case DType::F16:
        return f16_to_float(static_cast<const std::uint16_t*>(W.data)[i]);
      case DType::BF16:
        return bf16_to_float(static_cast<const std::uint16_t*>(W.data)[i]);
    }
    return 0.0;
  };
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      const std::size_t row = static_cast<std::size_t>(j) * (W.ld > 0 ? W.ld : K);
      for (int k = 0; k < K; ++k) acc += static_cast<double>(x[i * ldx + k]) * weight(row + k);
      if (bias) acc += bias[j];
      y[i * ldy + j] = static_cast<float>(acc);
    }
  }
}

void exp_shifted(const float* x, float* y, int n, float shift, float scale) {
  for (int i = 0; i < n; ++i)
    y[i] = static_cast<float>(std::exp(static_cast<double>(scale) * (x[i] - static_cast<double>(shift))));
}

void softmax_forward(const float* x, float* y, int rows, int cols, float scale, const float* mask, int mask_stride,
                     int visible) {
  std::vector<double> z(cols);
  for (int r = 0; r < rows; ++r) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int c = 0; c < cols; ++c) {
      if (visible >= 0 && c >= visible + r) {
        z[c] = -std::numeric_limits<double>::infinity();  // causal: past the visible columns
        continue;
      }
      z[c] =
          static_cast<double>(scale) * x[r * cols + c] + (mask ? static_cast<double>(mask[r * mask_stride + c]) : 0.0);
      mx = std::max(mx, z[c]);
    }
    if (mx == -std::numeric_limits<double>::infinity()) {
      for (int c = 0; c < cols; ++c) y[r * cols + c] = 0.0f;
      continue;
    }
    double total = 0.0;
    for (int c = 0; c < cols; ++c) total += z[c] = std::exp(z[c] - mx);
    for (int c = 0; c < cols; ++c) y[r * cols + c] = static_cast<float>(z[c] / total);
  }
}

void softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols, float scale, bool accumulate,
                      int visible) {
  for (int r = 0; r < rows; ++r) {
    const float* yr = y + r * cols;
    const float* dyr = dy + r * cols;
    const int seen = visible >= 0 ? std::min(cols, visible + r) : cols;
    double inner = 0.0;
    for (int c = 0; c < seen; ++c) inner += static_cast<double>(dyr[c]) * yr[c];
    for (int c = 0; c < cols; ++c) {
      if (c >= seen) {
        if (!accumulate) dx[r * cols + c] = 0.0f;
        continue;
      }
      double g = scale * yr[c] * (dyr[c] - inner);
      if (accumulate) g += dx[r * cols + c];
      dx[r * cols + c] = static_cast<float>(g);
    }
  }
}

void layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                       int rows, int cols, float eps) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double m = 0.0;
    for (int c = 0; c < cols; ++c) m += xr[c];
    m /= cols;
    double v = 0.0;
    for (int c = 0; c < cols; ++c) v += (xr[c] - m) * (xr[c] - m);
    v /= cols;
    const double s = 1.0 / std::sqrt(v + eps);
    for (int c = 0; c < cols; ++c) {
      y[r * cols + c] = static_cast<float>((xr[c] - m) * s * gamma[c] + beta[c]);
    }
    mean[r] = static_cast<float>(m);
    rstd[r] = static_cast<float>(s);
  }
}

void layernorm_backward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                        float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate_dx) {
  std::vector<double> dg(cols, 0.0), db(cols, 0.0);
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    const float* dyr = dy + r * cols;
    double dnorm_mean = 0.0, dnorm_xhat_mean = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double xhat = (xr[c] - static_cast<double>(mean[r])) * rstd[r];
      const double dnorm = static_cast<double>(dyr[c]) * gamma[c];
      dnorm_mean += dnorm;
      dnorm_xhat_mean += dnorm * xhat;
      dg[c] += dyr[c] * xhat;
      db[c] += dyr[c];
    }
    dnorm_mean /= cols;
    dnorm_xhat_mean /= cols;
    for (int c = 0; c < cols; ++c) {
      const double xhat = (xr[c] - static_cast<double>(mean[r])) * rstd[r];
      const double dnorm = static_cast<double>(dyr[c]) * gamma[c];
      double g = (dnorm - dnorm_mean - xhat * dnorm_xhat_mean) * rstd[r];
      if (accumulate_dx) g += dx[r * cols + c];
      dx[r * cols + c] = static_cast<float>(g);
    }
  }
  for (int c = 0; c < cols; ++c) {
    dgamma[c] = static_cast<float>(dgamma[c] + dg[c]);
    dbeta[c] = static_cast<float>(dbeta[c] + db[c]);
  }
}

void rmsnorm_forward(const float* x, const float* gamma, float* y, float* rstd, int rows, int cols, float eps) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double ms = 0.0;
    for (int c = 0; c < cols; ++c) ms += static_cast<double>(xr[c]) * xr[c];
    const double s = 1.0 / std::sqrt(ms / cols + eps);
    for (int c = 0; c < cols; ++c) y[r * cols + c] = static_cast<float>(xr[c] * s * gamma[c]);
    rstd[r] = static_cast<float>(s);
  }
}

void rmsnorm_backward(const float* x, const float* gamma, const float* rstd, const float* dy, float* dx, float* dgamma,
                      int rows, int cols, bool accumulate_dx) {
  std::vector<double> dg(cols, 0.0);
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    const float* dyr = dy + r * cols;
    double dnorm_xhat_mean = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double xhat = static_cast<double>(xr[c]) * rstd[r];
      dnorm_xhat_mean += static_cast<double>(dyr[c]) * gamma[c] * xhat;
      dg[c] += dyr[c] * xhat;
    }
    dnorm_xhat_mean /= cols;
    for (int c = 0; c < cols; ++c) {
      const double xhat = static_cast<double>(xr[c]) * rstd[r];
      double g = (static_cast<double>(dyr[c]) * gamma[c] - xhat * dnorm_xhat_mean) * rstd[r];
      if (accumulate_dx) g += dx[r * cols + c];
      dx[r * cols + c] = static_cast<float>(g);
    }
  }
  for (int c = 0; c < cols; ++c) dgamma[c] = static_cast<float>(dgamma[c] + dg[c]);
}

void gelu_forward(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = static_cast<float>(v * sigmoid(kGeluC * (v + kGeluA * v * v * v)));
  }
}

void gelu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    const double s = sigmoid(kGeluC * (v + kGeluA * v * v * v));
    const double dz = kGeluC * (1.0 + 3.0 * kGeluA * v * v);
    double g = dy[i] * (s + v * s * (1.0 - s) * dz);
    if (accumulate) g += dx[i];
    dx[i] = static_cast<float>(g);
  }
}

void gelu_forward_gate(const float* x, float* y, float* gate, int n) {
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    const double g = sigmoid(kGeluC * (v + kGeluA * v * v * v));
    gate[i] = static_cast<float>(g);
    y[i] = static_cast<float>(v * g);
  }
}

// The gate is an input here (as in the fast kernel), so only the rest is exact.
void gelu_backward_gate(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                        float* dbias) {
  std::vector<double> db(cols, 0.0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const long i = static_cast<long>(r) * cols + c;
      const double v = x[i], s = gate[i];
      const double dz = kGeluC * (1.0 + 3.0 * kGeluA * v * v);
      const double g = dy[i] * (s + v * s * (1.0 - s) * dz);
      dx[i] = static_cast<float>(g);
      db[c] += g;
    }
  }
  if (dbias) {
    for (int c = 0; c < cols; ++c) dbias[c] = static_cast<float>(dbias[c] + db[c]);
  }
}

void relu_forward(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void relu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  for (int i = 0; i < n; ++i) {
    const float g = x[i] > 0.0f ? dy[i] : 0.0f;
    dx[i] = accumulate ? dx[i] + g : g;
  }
}

void silu_forward(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = static_cast<float>(x[i] * sigmoid(x[i]));
}

void silu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  for (int i = 0; i < n; ++i) {
    const double s = sigmoid(x[i]);
    double g = dy[i] * s * (1.0 + x[i] * (1.0 - s));
    if (accumulate) g += dx[i];
    dx[i] = static_cast<float>(g);
  }
}

void add(const float* a, const float* b, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a[i] + b[i];
}

void scale(const float* x, float s, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = s * x[i];
}

void axpy(float a, const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = static_cast<float>(y[i] + static_cast<double>(a) * x[i]);
}

float sum(const float* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i];
  return static_cast<float>(s);
}

float max(const float* x, int n) {
  float m = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

float dot(const float* a, const float* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(s);
}

}  // namespace tp::kernels::ref
