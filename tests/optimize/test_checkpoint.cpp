// Checkpoint and resume by replay: a run resumed from the checkpoint of an interrupted run (cut
// by max_iterations, killed by an exception in the middle of a line search, or copied while it
// ran) ends at exactly the point of an uninterrupted run -- replay rebuilds the optimiser's
// state bit for bit, so the comparison is exact. Mismatched, missing and corrupt checkpoints
// are InputErrors naming the file (a checkpoint of another run refused by io::check_resume
// before minimize runs, what only the replay finds by io::resume_mismatch). The checkpoint goes through io's store (HDF5,
// include/qevolve/optimize_record.hpp); without a store a checkpoint path is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "optimize_testing.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/optimize_record.hpp"
#include "qevolve/optimizer.hpp"

namespace qevolve::testing {
namespace {

/// Removes the listed files at the end of a test.
struct Cleanup {
  std::vector<std::string> paths;
  ~Cleanup() {
    for (const auto& p : paths) std::filesystem::remove(p);
  }
};

/// Exactly the same iterates: same final point, same history of 1 - F and steps.
void expect_same_run(const optimize::Result& a, const optimize::Result& b) {
  ASSERT_EQ(a.x.size(), b.x.size());
  for (Index i = 0; i < a.x.size(); ++i) EXPECT_EQ(a.x(i), b.x(i)) << "parameter " << i;
  EXPECT_EQ(a.objective, b.objective);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.stop_reason, b.stop_reason);
  ASSERT_EQ(a.history.size(), b.history.size());
  for (std::size_t k = 0; k < a.history.size(); ++k) {
    EXPECT_EQ(a.history[k].objective, b.history[k].objective) << "iteration " << k;
    EXPECT_EQ(a.history[k].step, b.history[k].step) << "iteration " << k;
  }
}

/// Throws at the given evaluation (a kill in the middle of the run).
struct Killed {};
class Mortal final : public Rosenbrock {
 public:
  explicit Mortal(int die_at) : die_at_(die_at) {}
  double evaluate(const RVector& v, RVector& g, RVector& aux) override {
    if (evaluations + 1 == die_at_) throw Killed{};
    return Rosenbrock::evaluate(v, g, aux);
  }

 private:
  int die_at_;
};

/// settings(iterations) with io's checkpoint store.
optimize::Settings stored_settings(int iterations) {
  optimize::Settings s = settings(iterations);
  s.store = &io::optimize_checkpoint_store();
  return s;
}

optimize::Settings method_settings(OptimizerMethod method, int iterations) {
  optimize::Settings s = stored_settings(iterations);
  s.method = method;
  s.learning_rate = 0.002;  // larger steps make Adam oscillate in the valley (and stall)
  return s;
}

class Resume : public ::testing::TestWithParam<OptimizerMethod> {};

TEST_P(Resume, AfterMaxIterationsEqualsTheUninterruptedRun) {
  const std::string ck = temp_path("cut.h5");
  Cleanup cleanup{{ck}};
  Rosenbrock a;
  const auto full = optimize::minimize(a, start(), method_settings(GetParam(), 50));
  ASSERT_GT(full.history.size(), 30U);  // L-BFGS-B converges after about 40 iterations

  Rosenbrock b;  // interrupted after 3 iterations
  optimize::Settings s = method_settings(GetParam(), 3);
  s.checkpoint = ck;
  const auto cut = optimize::minimize(b, start(), s);
  ASSERT_EQ(cut.history.size(), 4U);

  Rosenbrock c;  // resumed with the full budget, checkpointing to the same file
  s = method_settings(GetParam(), 50);
  s.checkpoint = ck;
  s.resume = ck;
  const auto resumed = optimize::minimize(c, start(), s);
  expect_same_run(resumed, full);
  EXPECT_EQ(resumed.replayed, b.evaluations);  // the interrupted run's evaluations were replayed
  EXPECT_EQ(c.restores, b.evaluations);        // each with its aux restored, in order
  for (int k = 0; k < c.restores; ++k) EXPECT_EQ(c.restored[static_cast<std::size_t>(k)], k + 1);
  // None was recomputed; the one extra evaluation re-checks the objective at the start point.
  EXPECT_EQ(c.evaluations + c.restores, a.evaluations + 1);
  // Replayed iterations keep their recorded times.
  for (std::size_t k = 0; k < cut.history.size(); ++k)
    EXPECT_EQ(resumed.history[k].wall_time_s, cut.history[k].wall_time_s);

  // The checkpoint now holds the whole run: resuming it again evaluates nothing.
  Rosenbrock d;
  s.checkpoint.clear();
  const auto again = optimize::minimize(d, start(), s);
  expect_same_run(again, full);
  EXPECT_EQ(d.evaluations, 1);  // the start-point check only
}

TEST_P(Resume, AfterAKillInTheMiddleOfTheRun) {
  const std::string ck = temp_path("killed.h5");
  Cleanup cleanup{{ck}};
  Rosenbrock a;
  std::vector<int> ends;  // the number of evaluations at the end of each iteration
  const auto full = optimize::minimize(
      a, start(), method_settings(GetParam(), 40),
      [&](const optimize::IterationRecord& /*it*/) { ends.push_back(a.evaluations); });
  // Kill points: before the second evaluation; at the first evaluation of an iteration (the
  // replay ends on an iteration boundary); and for L-BFGS-B inside a line search that needs
  // several evaluations (the replay ends in the middle of it).
  std::vector<int> kills = {2, ends.at(10) + 1};
  for (std::size_t i = 1; i < ends.size(); ++i)
    if (ends[i] - ends[i - 1] >= 2) {
      kills.push_back(ends[i - 1] + 2);
      break;
    }
  if (GetParam() == OptimizerMethod::lbfgs) {
    ASSERT_EQ(kills.size(), 3U) << "no line search with two evaluations";
  }
  for (const int die_at : kills) {
    std::filesystem::remove(ck);
    Mortal m(die_at);
    optimize::Settings s = method_settings(GetParam(), 40);
    s.checkpoint = ck;
    EXPECT_THROW((void)optimize::minimize(m, start(), s), Killed);
    Rosenbrock c;
    s.resume = ck;
    const auto resumed = optimize::minimize(c, start(), s);
    expect_same_run(resumed, full);
    EXPECT_EQ(c.restores, die_at - 1) << "killed at evaluation " << die_at;
  }
}

TEST_P(Resume, FromACheckpointCopiedWhileTheRunWent) {
  const std::string ck = temp_path("live.h5"), copy = temp_path("copy.h5"),
                    other = temp_path("other.h5");
  Cleanup cleanup{{ck, copy, other}};
  optimize::Settings s = method_settings(GetParam(), 30);
  s.checkpoint = ck;
  Rosenbrock a;
  const auto full = optimize::minimize(a, start(), s, [&](const optimize::IterationRecord& it) {
    if (it.iteration == 7) std::filesystem::copy_file(ck, copy);
  });
  ASSERT_TRUE(std::filesystem::exists(copy));

  Rosenbrock c;
  s.resume = copy;
  s.checkpoint = other;  // another file: the copy stays as it was
  const auto before = std::filesystem::last_write_time(copy);
  const auto resumed = optimize::minimize(c, start(), s);
  expect_same_run(resumed, full);
  EXPECT_GT(c.restores, 7);
  EXPECT_EQ(std::filesystem::last_write_time(copy), before);

  // The new checkpoint holds the whole run.
  Rosenbrock d;
  s.resume = other;
  s.checkpoint.clear();
  expect_same_run(optimize::minimize(d, start(), s), full);
  EXPECT_EQ(d.evaluations, 1);  // the start-point check only
}

INSTANTIATE_TEST_SUITE_P(Methods, Resume,
                         ::testing::Values(OptimizerMethod::lbfgs, OptimizerMethod::adam),
                         [](const auto& p) {
                           return p.param == OptimizerMethod::adam ? "adam" : "lbfgs";
                         });

TEST(Checkpoint, HoldsEveryEvaluationAndTheHistory) {
  const std::string ck = temp_path("content.h5");
  Cleanup cleanup{{ck}};
  Rosenbrock a;
  optimize::Settings s = stored_settings(12);
  s.checkpoint = ck;
  const auto r = optimize::minimize(a, start(), s);
  const CMatrix counts = io::read_complex_matrix(ck, "/counts");
  ASSERT_EQ(counts.cols(), 3);
  EXPECT_EQ(counts(0, 1).real(), r.evaluations);
  EXPECT_EQ(counts(0, 2).real(), static_cast<double>(r.history.size()));
  const CMatrix x = io::read_complex_matrix(ck, "/evaluations/x");
  ASSERT_EQ(x.rows(), r.evaluations);
  EXPECT_EQ(x(0, 0).real(), -1.2);
  EXPECT_EQ(x(0, 1).real(), 1.0);
  const CMatrix f = io::read_complex_matrix(ck, "/evaluations/f");
  for (Index k = 0; k < f.rows(); ++k)
    EXPECT_EQ(f(k, 0).real(), a.values[static_cast<std::size_t>(k)]);
  const CMatrix aux = io::read_complex_matrix(ck, "/evaluations/aux");
  EXPECT_EQ(aux(4, 0).real(), 5.0);
  const CMatrix h = io::read_complex_matrix(ck, "/history/infidelity");
  ASSERT_EQ(h.rows(), static_cast<Index>(r.history.size()));
  EXPECT_EQ(h(h.rows() - 1, 0).real(), r.history.back().objective);
  EXPECT_EQ(io::read_complex_matrix(ck, "/settings/max_iterations")(0, 0).real(), 12.0);
}

TEST(Checkpoint, APathWithoutAStoreIsAPreconditionFailure) {
  const std::string ck = temp_path("nostore.h5");
  Cleanup cleanup{{ck}};
  optimize::Settings s = settings(3);  // no store
  s.checkpoint = ck;
  Rosenbrock a;
  EXPECT_THROW((void)optimize::minimize(a, start(), s), std::logic_error);
  s.checkpoint.clear();
  s.resume = ck;
  EXPECT_THROW((void)optimize::minimize(a, start(), s), std::logic_error);
  EXPECT_EQ(a.evaluations, 0);
  EXPECT_FALSE(std::filesystem::exists(ck));
}

/// The InputError of a resume, with its message, as the optimize command raises it: io refuses a
/// checkpoint of another run before minimize runs, and what only the replay finds as it is found.
std::string resume_error(optimize::Objective& f, const RVector& x0, const optimize::Settings& s) {
  try {
    io::check_resume(s.resume, x0, s);
    (void)optimize::minimize(f, x0, s);
  } catch (const optimize::ReplayMismatch& e) {
    return io::resume_mismatch(s.resume, e).what();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no InputError";
}

TEST(Checkpoint, AnotherConfigurationIsRefused) {
  const std::string ck = temp_path("mismatch.h5");
  Cleanup cleanup{{ck}};
  Rosenbrock a;
  optimize::Settings s = stored_settings(10);
  s.checkpoint = ck;
  (void)optimize::minimize(a, start(), s);
  s.checkpoint.clear();
  s.resume = ck;
  const std::string expected = ck + ": checkpoint does not match this configuration";

  Rosenbrock b;  // another start point
  EXPECT_EQ(resume_error(b, RVector::Zero(2), s).rfind(expected, 0), 0U);

  Rosenbrock shifted;  // the same points, another objective (e.g. another number of steps)
  shifted.shift = 1e-3;
  const std::string why = resume_error(shifted, start(), s);
  EXPECT_EQ(why.rfind(expected, 0), 0U) << why;
  EXPECT_NE(why.find("the objective at the start point"), std::string::npos) << why;
  EXPECT_EQ(b.evaluations + b.restores, 0);
  // minimize itself asserts what io::check_resume refuses.
  EXPECT_THROW((void)optimize::minimize(b, RVector::Zero(2), s), std::logic_error);
  RVector near = start();
  near(0) += 1e-9;  // beyond the 1e-12 relative tolerance
  EXPECT_EQ(resume_error(b, near, s).rfind(expected, 0), 0U);

  Rosenbrock c;  // another number of parameters
  c.lo = RVector::Constant(3, -kInf);
  c.hi = RVector::Constant(3, kInf);
  EXPECT_EQ(resume_error(c, RVector::Constant(3, -1.2), s).rfind(expected, 0), 0U);

  Rosenbrock d;  // another method
  optimize::Settings adam = s;
  adam.method = OptimizerMethod::adam;
  EXPECT_EQ(resume_error(d, start(), adam).rfind(expected, 0), 0U);

  // Same start point, other bounds: the optimiser asks for other points during the replay.
  Rosenbrock e;
  e.hi(0) = -1.1;
  const std::string message = resume_error(e, start(), s);
  EXPECT_EQ(message.rfind(expected, 0), 0U) << message;
  EXPECT_NE(message.find("evaluation"), std::string::npos) << message;
}

TEST(Checkpoint, MissingOrCorruptFilesAreInputErrorsNamingTheFile) {
  const std::string good = temp_path("good.h5"), junk = temp_path("junk.h5"),
                    cut = temp_path("truncated.h5"), other = temp_path("other-kind.h5"),
                    missing = temp_path("missing.h5");
  Cleanup cleanup{{good, junk, cut, other}};
  Rosenbrock a;
  optimize::Settings s = stored_settings(10);
  s.checkpoint = good;
  (void)optimize::minimize(a, start(), s);
  s.checkpoint.clear();

  std::ofstream(junk) << "not hdf5";
  {
    std::filesystem::copy_file(good, cut);
    std::filesystem::resize_file(cut, std::filesystem::file_size(good) / 2);
  }
  {
    io::Hdf5Writer w(other);  // HDF5, but not a checkpoint
    w.write("/unitary", RMatrix(RMatrix::Identity(2, 2)));
    w.commit();
  }
  for (const auto& path : {missing, junk, cut, other}) {
    Rosenbrock b;
    s.resume = path;
    const std::string message = resume_error(b, start(), s);
    EXPECT_EQ(message.rfind(path + ": ", 0), 0U) << message;
    EXPECT_EQ(b.evaluations + b.restores, 0) << path;
  }
}

}  // namespace
}  // namespace qevolve::testing
