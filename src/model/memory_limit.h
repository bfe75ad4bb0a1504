// The most bytes a model's parameters may take to load, per platform: the one place that limit
// is written. A page's wasm heap lives in a 4 GB address space that also holds the files being
// read and the activations, so the web module stops at 1 GiB (GPT-2 small's 124 M parameters take
// 498 MB). The native CLI is bounded by the machine instead: its physical memory, asked of the
// operating system once. Every loader checks a model's header against it before it reads or
// allocates a weight (docs/FORMAT.md, "Size limits").
#pragma once

#include <cstdint>
#include <string>

namespace tp {

// The web module's limit (also the native one when the machine's memory cannot be read).
constexpr std::int64_t kWasmMaxParameterBytes = 1LL << 30;

// The limit of this build on this machine, in bytes.
std::int64_t max_parameter_bytes();
// What the limit is, for messages: "" in wasm, " (this machine's physical memory)" natively.
std::string parameter_limit_source();

}  // namespace tp
