// How a weight is stored: 32-bit float, or one of the two 16-bit formats checkpoints ship in —
// IEEE half (F16) and bfloat16 (BF16, the top half of an f32). Either 16-bit value widens to f32
// exactly, so a model kept in its checkpoint's dtype computes with the very values a widened copy
// would hold, in half the memory and half the bytes read per generated token. The names are the
// safetensors dtype strings.
#pragma once

#include <cstdint>
#include <cstring>

namespace tp {

enum class DType : unsigned char { F32, F16, BF16 };

inline constexpr int dtype_size(DType t) { return t == DType::F32 ? 4 : 2; }
inline constexpr const char* dtype_name(DType t) { return t == DType::F32 ? "F32" : t == DType::F16 ? "F16" : "BF16"; }

// A matrix of weights [rows, cols] as stored, rows `ld` elements apart (0: cols): f32, or F16 /
// BF16 that the kernels reading it widen exactly to f32 (kernels::matvec).
struct WeightView {
  const void* data = nullptr;
  DType dtype = DType::F32;
  int ld = 0;
};

inline float bf16_to_float(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Exact for every F16 value: normals and subnormals (a subnormal times 2^-24 is a normal f32),
// zeros, infinities and NaNs (payload kept).
inline float f16_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // 2^-24, exact
    std::memcpy(&bits, &magnitude, 4);
    bits |= sign;
  } else {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Round to nearest even (what PyTorch's .to(torch.bfloat16) does); NaN stays NaN.
inline std::uint16_t float_to_bf16(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

// Round to nearest even, overflow to infinity, subnormals kept (what .to(torch.float16) does).
inline std::uint16_t float_to_f16(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds past 65504: inf
  if (abs < 0x38800000u) {  // below the smallest normal half (2^-14): a subnormal or zero
    float magnitude;
    std::memcpy(&magnitude, &abs, 4);
    // Adding 0.5 lines the half's subnormal grid (steps of 2^-24) up with f32's last bits, so the
    // float addition itself rounds to nearest even.
    const float shifted = magnitude + 0.5f;
    std::uint32_t s;
    std::memcpy(&s, &shifted, 4);
    return static_cast<std::uint16_t>(sign | (s - 0x3f000000u));
  }
  const std::uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rounded - (112u << 23)) >> 13));
}

}  // namespace tp
