// [gradcheck] Every parameter tensor's gradient against central finite differences, for a small
// model of every option (architectures, positions, norms and placements, MHA/GQA/MQA, windows
// with global tokens, FFN kinds, tying, biases, every head, dropout, label smoothing, padding).
//
// The model runs in f32, so the check uses directional derivatives (two random directions per
// tensor) with central differences — the best of five stencils (4-point at h = 2e-3, 1e-3, 5e-4;
// 2-point at 2.5e-4 and 1e-4), since one that straddles a ReLU kink mixes two slopes — and allows
// |g·u − fd| ≤ 1e-2·max(|g·u|, |fd|) + 5e-4: the f32 noise of the loss gives about 1e-4, a wrong
// backward gives an error of the size of the gradient itself.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "model_util.h"

using namespace tp;

TEST_CASE("every parameter gradient matches finite differences, for every option", "[gradcheck]") {
  Rng rng(99);
  double worst = 0.0;
  std::string worst_where;
  for (const test::OptionCase& gc : test::option_cases()) {
    Transformer model(gc.config, 5);
    // Bigger weights than the default init, so every path carries signal worth checking.
    for (int i = 0; i < model.params().count(); ++i) {
      float* v = model.params().value(i);
      for (std::size_t k = 0; k < model.params().info(i).size; ++k) v[k] += rng.normal(0.0f, 0.2f);
    }
    const Batch batch = test::random_batch(gc.config, 3, 6, rng);
    auto loss_at = [&] {
      model.reseed_dropout(17);
      return model.forward(batch, true, nullptr, gc.label_smoothing).loss;
    };
    model.params().ensure_training_state();
    model.params().zero_grad();
    loss_at();
    model.backward();
    for (int i = 0; i < model.params().count(); ++i) {
      const ParamInfo& info = model.params().info(i);
      float* w = model.params().value(i);
      const std::vector<float> saved(w, w + info.size);
      for (int dir = 0; dir < 2; ++dir) {
        std::vector<float> u(info.size);
        for (float& x : u) x = rng.normal();
        double analytic = 0.0;
        for (std::size_t k = 0; k < info.size; ++k) analytic += static_cast<double>(model.params().grad(i)[k]) * u[k];
        auto loss_shifted = [&](double s) {
          for (std::size_t k = 0; k < info.size; ++k) w[k] = static_cast<float>(saved[k] + s * u[k]);
          return loss_at();
        };
        // A stencil that straddles a ReLU kink measures a mix of two slopes; a narrower one
        // usually clears it, so the best agreement over five stencils counts (a wrong gradient
        // disagrees with all of them): 4-point at h = 2e-3, 1e-3, 5e-4, then 2-point at 2.5e-4
        // and 1e-4, which reach only ±h.
        double best_err = std::numeric_limits<double>::infinity(), numeric = 0.0;
        for (const double h : {2e-3, 1e-3, 5e-4, 2.5e-4, 1e-4}) {
          const double fd =
              h >= 5e-4 ? (8.0 * (loss_shifted(h) - loss_shifted(-h)) - (loss_shifted(2 * h) - loss_shifted(-2 * h))) /
                              (12.0 * h)
                        : (loss_shifted(h) - loss_shifted(-h)) / (2.0 * h);
          if (std::fabs(analytic - fd) < best_err) {
            best_err = std::fabs(analytic - fd);
            numeric = fd;
          }
        }
        std::copy(saved.begin(), saved.end(), w);
        const double allowed = 1e-2 * std::max(std::fabs(analytic), std::fabs(numeric)) + 5e-4;
        INFO(gc.name << ": " << info.name << " analytic " << analytic << " numeric " << numeric);
        CHECK(best_err <= allowed);
        const double rel = best_err / std::max(std::fabs(analytic), 1e-2);
        if (rel > worst) {
          worst = rel;
          worst_where = gc.name + ": " + info.name;
        }
      }
    }
  }
  WARN("worst gradcheck error " << worst << " at " << worst_where);
}
