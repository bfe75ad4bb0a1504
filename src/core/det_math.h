// Deterministic double-precision exp, log, sin and cos.
//
// Weight initialisation, the RNG's normal samples and the sinusoidal/RoPE tables must come out
// bit-identical in the native build (glibc) and the wasm build (musl), whose libm functions may
// differ in the last bit. These use only +, -, *, / and exact scaling, which IEEE 754 rounds the
// same everywhere; they are accurate to a few ulp of a double, far below the float they feed.
// Not for hot loops: kernels have their own float approximations (kernels/simd.h).
#pragma once

namespace tp::det {

double exp(double x);
double log(double x);  // x > 0
double sin(double x);
double cos(double x);
double pow(double base, double exponent);  // base > 0

}  // namespace tp::det
