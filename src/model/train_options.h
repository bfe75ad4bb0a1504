// TrainOptions: how a model is trained — optimizer, schedule, batch, evaluation cadence — with the
// defaults and limits of every option in one table (fields(), see core/schema.h). A task carries
// the values that suit it (Task::train); the trainer, the command line and the JavaScript API all
// read and write this one type.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/enum_names.h"
#include "core/json.h"
#include "core/schema.h"

namespace tp {

enum class ScheduleKind { Constant, Cosine, Noam };
inline constexpr EnumName<ScheduleKind> kScheduleKindNames[] = {
    {ScheduleKind::Constant, "constant"}, {ScheduleKind::Cosine, "cosine"}, {ScheduleKind::Noam, "noam"}};
inline const char* to_string(ScheduleKind v) { return enum_name(kScheduleKindNames, v); }
ScheduleKind parse_schedule(std::string_view name);  // tp::Error listing the allowed names

struct TrainOptions {
  float lr = 3e-3f;
  int batch_size = 16;
  int warmup = 20;
  ScheduleKind schedule = ScheduleKind::Cosine;
  int total_steps = 1000;
  float clip = 1.0f;
  float weight_decay = 0.01f;
  float label_smoothing = 0.0f;
  float beta1 = 0.9f, beta2 = 0.98f;
  std::uint64_t seed = 1;
  int eval_every = 100;
  int seq_len = 64;

  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& o, Visit&& visit) {
    using namespace schema;
    visit(Real("lr", "lr", 0, 10, "peak learning rate (noam: a multiplier on the model width to the power -0.5)")
              .open_min(),
          o.lr);
    visit(Int("batch_size", "batchSize", 1, 4096, "sequences per training step"), o.batch_size);
    visit(Int("warmup", "warmup", 0, 10000000, "steps of linear learning-rate warm-up"), o.warmup);
    visit(Choice("schedule", "schedule", kScheduleKindNames,
                 "learning rate after warm-up: constant, cosine decay to lr/10, or the 2017 paper's noam")
              .parser(parse_schedule),
          o.schedule);
    visit(Int("total_steps", "totalSteps", 1, 100000000,
              "planned steps: the cosine schedule decays over them and training stops there")
              .cli("steps"),
          o.total_steps);
    visit(Real("clip", "clip", 0, kNoMax, "largest global gradient norm").note("0 turns clipping off"), o.clip);
    visit(Real("weight_decay", "weightDecay", 0, 1, "AdamW's decoupled weight decay (not on norms and biases)")
              .open_max(),
          o.weight_decay);
    visit(
        Real("label_smoothing", "labelSmoothing", 0, 1, "share of each target's probability spread over the vocabulary")
            .open_max(),
        o.label_smoothing);
    visit(Real("beta1", "beta1", 0, 1, "AdamW's first-moment decay").open_max(), o.beta1);
    visit(Real("beta2", "beta2", 0, 1, "AdamW's second-moment decay").open_max(), o.beta2);
    visit(Int("seed", "seed", 0, 9007199254740991LL, "seed of the batches and dropout masks"), o.seed);
    visit(Int("eval_every", "evalEvery", 0, kUnbounded, "steps between evaluations, after the first")
              .note("0 = only the first and when asked"),
          o.eval_every);
    visit(Int("seq_len", "seqLen", 2, 4096,
              "text tasks: tokens per training window (at most the model's longest sequence)"),
          o.seq_len);
  }
  // clang-format on

  void validate() const { schema::check(*this); }  // tp::Error naming the bad field
  json::Value to_json(schema::Naming naming = schema::Naming::Snake) const { return schema::to_json(*this, naming); }
  // The fields present in `value` over `base`; unknown keys and wrong types are errors that list
  // the allowed keys.
  static TrainOptions from_json(const json::Value& value, TrainOptions base,
                                schema::Naming naming = schema::Naming::Snake) {
    schema::from_json(base, value, "training option", naming);
    return base;
  }
};

}  // namespace tp
