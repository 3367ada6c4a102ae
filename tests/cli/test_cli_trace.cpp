// output.trace, /pulses and /resolved end to end (docs/output.md "Time traces", "/pulses",
// "/resolved"), checked by h5py against |/propagator|^2, a shorter run, the RWA Rabi curve and
// the pulse formula; the summary's notes and --quiet by their text (docs/cli.md).
#include <gtest/gtest.h>

#include "cli_util.hpp"

namespace qevolve::testing {
namespace {

/// A single two- or three-level fluxonium (docs/reference.md parameters) with a cos pulse.
std::string fluxonium(int levels, const std::string& pulse, const std::string& evolution,
                      const std::string& extra = "") {
  return "device:\n"
         "  qubits:\n"
         "    - {name: q0, type: fluxonium, ec: 1.0, ej: 4.0, el: 1.0, flux: 0.5, levels: " +
         std::to_string(levels) + "}\n"
         "pulses:\n"
         "  - " + pulse + "\n"
         "evolution:\n" + evolution + extra;
}

const std::string kXPulse =
    "{qubit: q0, shape: cos, amplitude: 0.0823684365012486, frequency: 0.5823664862818624, phase: 0.64509906, "
    "duration: 40.0}";

/// Runs `yaml` with `args`, returns the result; the file is dir/name.h5.
CommandResult run_yaml(const TempDir& dir, const std::string& name, const std::string& yaml,
                       const std::string& args = "") {
  const auto cfg = dir.write(name + ".yaml", yaml);
  return run_qevolve("run '" + cfg.string() + "' -o '" + (dir / (name + ".h5")).string() + "' --threads 2 " + args,
                     dir);
}

/// Python prologue: h5py, numpy and a reader of file NAME.h5 in dir.
std::string py_open(const TempDir& dir) {
  return "import h5py, numpy as np\n"
         "def load(name):\n"
         "    return h5py.File('" + dir.path().string() + "/' + name + '.h5', 'r')\n";
}

/// The final trace entry equals |/propagator|^2 elementwise (1e-12: the same state, squared),
/// the mode marginals sum the populations, t runs from 0 to T.
const std::string kFinalCheck =
    "def check_final(name, T, norm_tol=1e-9):\n"
    "    f = load(name)\n"
    "    t = f['trace/time'][()]\n"
    "    P = f['trace/populations'][()]\n"
    "    M = f['trace/mode_populations'][()]\n"
    "    U = f['propagator'][()]\n"
    "    assert abs(t[0]) < 1e-15 and abs(t[-1] - T) < 1e-12, t\n"
    "    assert P.shape == (len(t),) + U.shape, (P.shape, U.shape)\n"
    "    err = np.abs(P[-1] - np.abs(U) ** 2).max()\n"
    "    assert err < 1e-12, (name, err)\n"
    "    # one mode: the marginal is the population itself\n"
    "    if M.shape[1] == 1:\n"
    "        assert np.abs(M[:, 0, :P.shape[1], :] - P).max() < 1e-14\n"
    "    assert np.abs(M.sum(axis=2) - 1).max() < norm_tol, np.abs(M.sum(axis=2) - 1).max()\n";

TEST(CliTrace, FinalPopulationsEqualThePropagatorForEverySolver) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const std::string trace = "output:\n  trace: {every: 7}\n";
  const std::pair<const char*, std::string> cases[] = {
      {"trotter", "  solver: trotter\n  steps: 400\n"},
      {"magnus", "  solver: magnus4\n  steps: 200\n"},
      {"expm", "  solver: expm\n  steps: 150\n"},
      {"adaptive", "  solver: adaptive\n  steps: 50\n  rtol: 1.0e-8\n  atol: 1.0e-10\n"},
      {"dressed", "  solver: trotter\n  steps: 400\n  basis: dressed\n  frame: rotating\n"},
      {"rotating", "  solver: magnus4\n  steps: 200\n  frame: rotating\n  initial_states: all\n"}};
  std::string py = py_open(dir) + kFinalCheck;
  for (const auto& [name, evolution] : cases) {
    const auto r = run_yaml(dir, name, fluxonium(4, kXPulse, evolution, trace));
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    // adaptive keeps the norm to its tolerances only (rtol 1e-8 over 40 ns: ~2e-6 measured).
    py += std::string("check_final('") + name + "', 40.0" + (std::string(name) == "adaptive" ? ", 1e-5" : "") + ")\n";
  }
  const auto check = run_python(py, dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

/// Two coupled fluxoniums (bonds: the last layer of a step is fused into the next one except at
/// an observed boundary) driven by piecewise-constant carriers: the trace at t equals the
/// final populations of the same run cut at t (the same samples at the same midpoints), and
/// observing does not move the propagator.
std::string pair(double duration, int steps, const std::string& solver, const std::string& out) {
  char buf[1200];
  std::snprintf(buf, sizeof buf,
                "device:\n  preset: mpc_fluxonium_1d\n  preset_args: {qubits: 2, levels: 3}\n"
                "pulses:\n"
                "  - {qubit: q0, shape: piecewise_constant, values: [0.03], frequency: 0.58, duration: %.17g}\n"
                "  - {qubit: q1, shape: piecewise_constant, values: [0.02], frequency: 0.61, phase: 0.3, "
                "duration: %.17g}\n"
                "evolution:\n  %s\n  steps: %d\n  initial_states: all\n%s",
                duration, duration, solver.c_str(), steps, out.c_str());
  return buf;
}

TEST(CliTrace, IntermediatePopulationsEqualAShorterRun) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  std::string py = py_open(dir);
  for (const std::string solver : {"solver: magnus4\n  splitting: bonds", "solver: trotter\n  splitting: terms",
                                   "solver: trotter\n  order: 4\n  splitting: bonds", "solver: expm",
                                   // dressed: the trace needs every column, the executor stops there
                                   "solver: magnus4\n  splitting: bonds\n  basis: dressed"}) {
    const std::string tag = std::to_string(py.size());
    // dt = 0.1 ns; the trace at t = 12.3 ns (step 123) and every step boundary in between.
    ASSERT_EQ(run_yaml(dir, "long" + tag, pair(30.0, 300, solver, "output:\n  trace: {times: [0, 5.0, 12.3, 30]}\n"))
                  .exit_code, 0);
    ASSERT_EQ(run_yaml(dir, "plain" + tag, pair(30.0, 300, solver, "")).exit_code, 0);
    ASSERT_EQ(run_yaml(dir, "short" + tag, pair(12.3, 123, solver, "")).exit_code, 0);
    py += "L, S, N = load('long" + tag + "'), load('short" + tag + "'), load('plain" + tag + "')\n"
          "P = L['trace/populations'][()]\n"
          "assert [m.decode() if isinstance(m, bytes) else m for m in L['trace/mode_populations'].attrs['modes']] == ['q0', 'q1']\n"
          "assert np.allclose(L['trace/time'][()], [0, 5.0, 12.3, 30], atol=1e-12, rtol=0)\n"
          "e1 = np.abs(P[2] - np.abs(S['propagator'][()]) ** 2).max()\n"
          "e2 = np.abs(L['propagator'][()] - N['propagator'][()]).max()\n"
          "e3 = np.abs(P[0] - np.eye(P.shape[1])).max()\n"
          "assert e1 < 1e-12 and e2 < 1e-12 and e3 < 1e-12, ('" + tag + "', e1, e2, e3)\n";
  }
  const auto check = run_python(py, dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

TEST(CliTrace, RabiOscillationFollowsTheRwaCurve) {
  // A resonantly driven two-level fluxonium: H = f01 |1><1| + A cos(2 pi f01 t) phi. In the RWA
  // P1(t) = sin^2(pi Omega t), Omega = A |phi01| (GHz; A = 0.005, |phi01| = 2.13: Omega = 0.0107).
  // The counter-rotating terms add oscillations of relative size ~ Omega / (4 f01) to the
  // amplitudes and the Bloch-Siegert shift Omega^2 / (4 f01) ~ 5e-5 GHz detunes, so the
  // population deviates from the RWA curve by at most ~ Omega / f01 = 0.018, the bound tested
  // (measured 4.6e-3); more than 1e-4 shows that the deviation is really there. Trotter
  // (midpoint, dt = 0.02 ns) adds ~ 1e-6. Two Rabi periods are traced.
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const std::string pulse = "{qubit: q0, shape: piecewise_constant, values: [0.005], frequency: auto, duration: 200.0}";
  const auto r = run_yaml(dir, "rabi",
                          fluxonium(2, pulse, "  solver: trotter\n  steps: 10000\n", "output:\n  trace: {every: 50}\n"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // |phi01| from `qevolve spectrum` (an independent path: the mode's diagonalisation only).
  const auto spec_cfg = dir.write("spec.yaml", fluxonium(2, pulse, "  solver: trotter\n"));
  ASSERT_EQ(run_qevolve("spectrum '" + spec_cfg.string() + "' -o '" + (dir / "spec.h5").string() + "'", dir)
                .exit_code, 0);
  const auto check = run_python(
      py_open(dir) +
          "f = load('rabi')\n"
          "t = f['trace/time'][()]\n"
          "P = f['trace/populations'][()]\n"
          "keys = [k.decode() if isinstance(k, bytes) else k for k in f['resolved/keys'][()]]\n"
          "f01 = f['resolved/values'][()][keys.index('pulses[0].frequency')]\n"
          "E = f['energies'][()]\n"
          "assert abs(f01 - (E[1] - E[0])) < 1e-9, (f01, E)\n"
          "phi01 = abs(load('spec')['qubits/q0/phi01'][()])\n"
          "Om = 0.005 * phi01\n"
          "rwa = np.sin(np.pi * Om * t) ** 2\n"
          "dev = np.abs(P[:, 1, 0] - rwa).max()\n"
          "bound = Om / f01\n"
          "print('Omega', Om, 'f01', f01, 'max |P1 - RWA|', dev, 'bound', bound)\n"
          "assert dev > 1e-4, 'the counter-rotating terms should show: %g' % dev\n"
          "assert Om * t[-1] > 1.5, Om * t[-1]\n"
          "assert dev < bound, (dev, bound)\n",
      dir);
  EXPECT_EQ(check.exit_code, 0) << check.err << check.out;
}

TEST(CliTrace, OpenSystemTracesConserveTheTrace) {
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  const std::string noise = "  noise:\n    q0: {t1: 200.0, tphi: 300.0}\n";
  for (const std::string name : {"open_trotter", "open_expm"}) {
    const std::string solver = name == "open_trotter" ? "trotter" : "expm";
    const auto r = run_yaml(dir, name,
                            fluxonium(3, kXPulse, "  solver: " + solver + "\n  steps: 400\n  frame: rotating\n" + noise,
                                      "output:\n  trace: {every: 10}\n"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto check = run_python(
      py_open(dir) +
          "for name in ['open_trotter', 'open_expm']:\n"
          "    f = load(name)\n"
          "    tr = f['trace/trace'][()]\n"
          "    P = f['trace/populations'][()]\n"
          "    S = f['superoperator'][()]\n"
          "    n = tr.shape[1]\n"
          "    assert tr.shape == (41, 2) and P.shape == (41, 3, 2), (tr.shape, P.shape)\n"
          "    assert np.abs(tr - 1).max() < 1e-12, np.abs(tr - 1).max()\n"
          "    assert np.abs(P.sum(axis=1) - tr).max() < 1e-12\n"
          "    # decay happened (T1 = 200 ns over 40 ns), and the last entry is the channel's diagonal\n"
          "    for k in range(n):\n"
          "        for a in range(n):\n"
          "            assert abs(P[-1, a, k] - S[a + n * a, k + n * k].real) < 1e-12\n",
      dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

TEST(CliTrace, PulseSamplesAreTheFormulaAtTheSolverTimes) {
  // f(t) = A (1 + cos(2 pi/L (tau - L/2)))/2 cos(2 pi f tau + phase) (docs/pulses.md), at the
  // step midpoints (trotter) and the two Gauss points of each step (magnus4). The tolerance is
  // 1e-15 relative to A plus the rounding of the carrier argument (8 eps |2 pi f tau|): an
  // independent evaluation in another order differs by that much.
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  TempDir dir;
  ASSERT_EQ(run_yaml(dir, "mid", fluxonium(3, kXPulse, "  solver: trotter\n  steps: 300\n")).exit_code, 0);
  ASSERT_EQ(run_yaml(dir, "gauss", fluxonium(3, kXPulse, "  solver: magnus4\n  steps: 100\n")).exit_code, 0);
  const auto check = run_python(
      py_open(dir) +
          "A, fr, ph, L = 0.0823684365012486, 0.5823664862818624, 0.64509906, 40.0\n"
          "def f(t):\n"
          "    return A * 0.5 * (1 + np.cos(2 * np.pi / L * (t - L / 2))) * np.cos(2 * np.pi * fr * t + ph)\n"
          "m, g = load('mid'), load('gauss')\n"
          "tm = m['pulses/time'][()]\n"
          "assert np.abs(tm - (np.arange(300) + 0.5) * (40.0 / 300)).max() < 1e-13\n"
          "c = np.sqrt(3) / 6\n"
          "dt = 40.0 / 100\n"
          "tg = np.sort(np.concatenate([(np.arange(100) + 0.5 - c) * dt, (np.arange(100) + 0.5 + c) * dt]))\n"
          "assert np.abs(g['pulses/time'][()] - tg).max() < 1e-13\n"
          "eps = np.finfo(float).eps\n"
          "for h in (m, g):\n"
          "    t = h['pulses/time'][()]\n"
          "    v = h['pulses/values'][()]\n"
          "    names = [x.decode() if isinstance(x, bytes) else x for x in h['pulses/names'][()]]\n"
          "    assert v.shape == (1, len(t)) and names == ['pulses[0]'], (v.shape, names)\n"
          "    tol = A * (1e-15 + 8 * eps * 2 * np.pi * fr * t)\n"
          "    assert (np.abs(v[0] - f(t)) <= tol).all(), np.abs(v[0] - f(t)).max()\n",
      dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

TEST(CliTrace, ResolvedValuesArePrintedAndStored) {
  TempDir dir;
  const std::string pulse =
      "{qubit: q0, shape: rampcos, amplitude: auto, angle: 3.141592653589793, frequency: auto, duration: 40.0, "
      "ramp: 10.0}";
  const auto r = run_yaml(dir, "auto", fluxonium(3, pulse, "  solver: magnus4\n  steps: 400\n"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"resolved: pulses[0].amplitude = ", "GHz (auto)\n", "resolved: pulses[0].frequency = ",
                           "resolved: pulses[0].plateau = 20 ns (derived)\n",
                           "resolved: evolution.duration = 40 ns (latest pulse end)\n"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  if (!python_has_h5py()) GTEST_SKIP() << "/usr/bin/python3 with h5py not found";
  const auto check = run_python(
      py_open(dir) +
          "f = load('auto')\n"
          "keys = [k.decode() if isinstance(k, bytes) else k for k in f['resolved/keys'][()]]\n"
          "vals = f['resolved/values'][()]\n"
          "assert keys == ['pulses[0].amplitude', 'pulses[0].frequency', 'pulses[0].plateau', 'evolution.duration'], keys\n"
          "E = f['energies'][()]\n"
          "assert abs(vals[1] - (E[1] - E[0])) < 1e-9 and vals[2] == 20.0 and vals[3] == 40.0, vals\n"
          "assert vals[0] > 0\n",
      dir);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

TEST(CliTrace, SummaryNotesAndQuiet) {
  TempDir dir;
  const std::string target = "target:\n  gates: [{gate: X, qubits: [q0]}]\n";
  // Lab frame, compensation none (the default): the hint; a rotating frame: none.
  const auto lab = run_yaml(dir, "lab", fluxonium(3, kXPulse, "  solver: magnus4\n  steps: 400\n", target));
  ASSERT_EQ(lab.exit_code, 0) << lab.err;
  const std::string hint =
      "note: frame: lab without compensation: the qubits' single-qubit Z phases count as errors; "
      "`target.compensation: vz` leaves them out (`evolution.frame: rotating` removes the free "
      "precession instead, but a pulse tuned in one frame needs its phase re-tuned in the other)\n";
  EXPECT_NE(lab.out.find(hint), std::string::npos) << lab.out;
  EXPECT_EQ(lab.err, "");
  const auto rot =
      run_yaml(dir, "rot", fluxonium(3, kXPulse, "  solver: magnus4\n  steps: 400\n  frame: rotating\n", target));
  ASSERT_EQ(rot.exit_code, 0) << rot.err;
  EXPECT_EQ(rot.out.find("note: frame"), std::string::npos) << rot.out;
  const auto vz = run_yaml(dir, "vz", fluxonium(3, kXPulse, "  solver: magnus4\n  steps: 400\n",
                                                target + "  compensation: vz\n"));
  EXPECT_EQ(vz.out.find("note: frame"), std::string::npos) << vz.out;

  // 10 steps for a 40 ns lab-frame pulse: the step warning on stderr (also with --quiet).
  // The fastest phase: the 0.5824 GHz carrier (above f01 = 0.5818 GHz), 14.6 rad per 4 ns step.
  const auto coarse = run_yaml(dir, "coarse", fluxonium(3, kXPulse, "  solver: trotter\n  steps: 10\n", target));
  ASSERT_EQ(coarse.exit_code, 0) << coarse.err;
  EXPECT_EQ(coarse.err.rfind("qevolve: warning: ", 0), 0u) << coarse.err;
  EXPECT_NE(coarse.err.find(" rad per step on mode `q0` ("), std::string::npos) << coarse.err;
  EXPECT_NE(coarse.err.find("exceeds 0.5 rad: the step error may be large; use evolution.steps >= "),
            std::string::npos)
      << coarse.err;
  EXPECT_EQ(lab.err.find("rad per step"), std::string::npos);
  const auto quiet = run_yaml(dir, "quiet", fluxonium(3, kXPulse, "  solver: trotter\n  steps: 10\n", target), "--quiet");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(quiet.err, coarse.err);
  // The same numbers for expm: its static part is exact, but the carrier sets the figure here.
  const auto expm = run_yaml(dir, "expm", fluxonium(3, kXPulse, "  solver: expm\n  steps: 10\n", target));
  EXPECT_NE(expm.err.find("14.6 rad per step on mode `q0` (0.582366 GHz x dt = 4 ns) exceeds 0.5 rad: the step "
                          "error may be large; use evolution.steps >= 293\n"),
            std::string::npos)
      << expm.err;

  // Without -o and output.file: the summary says nothing was written.
  const auto cfg = dir.write("noout.yaml", fluxonium(3, kXPulse, "  solver: magnus4\n  steps: 400\n", target));
  const auto none = run_qevolve("run '" + cfg.string() + "' --threads 1", dir);
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("nothing written: no -o and no output.file (add -o OUT.h5 to save the results)\n"),
            std::string::npos)
      << none.out;
  EXPECT_EQ(lab.out.find("nothing written"), std::string::npos);
  EXPECT_NE(lab.out.find("wrote "), std::string::npos);
  const auto none_quiet = run_qevolve("run '" + cfg.string() + "' --threads 1 --quiet", dir);
  EXPECT_EQ(none_quiet.out, "");
  EXPECT_EQ(none_quiet.err, "");
}

TEST(CliTrace, BadTracesAreInputErrors) {
  TempDir dir;
  const std::string ev = "  solver: magnus4\n  steps: 400\n";
  auto err = [&](const std::string& name, const std::string& out) {
    const auto cfg = dir.write(name + ".yaml", fluxonium(3, kXPulse, ev, out));
    const auto r = run_qevolve("check '" + cfg.string() + "'", dir);
    EXPECT_EQ(r.exit_code, 2) << name;
    return r.err.substr(r.err.find(".yaml:") + 6);
  };
  EXPECT_EQ(err("both", "output:\n  trace: {every: 3, times: [1.0]}\n"),
            "10:3: output.trace: give exactly one of `every` and `times` (expected {every: K} or "
            "{times: [t1, t2, ...]} (ns))\n");
  EXPECT_EQ(err("late", "output:\n  trace: {times: [1.0, 41.0]}\n"),
            "10:24: output.trace.times[1]: time 41 ns is after the end of the evolution T = 40 ns "
            "(expected 0 <= t <= T)\n");
  EXPECT_EQ(err("dup", "output:\n  trace: {times: [1.0, 1.04]}\n"),
            "10:24: output.trace.times[1]: maps to step boundary 10 (t = 1 ns), as does "
            "output.trace.times[0] (expected times at least one step (dt = 0.1 ns) apart)\n");
  EXPECT_NE(err("neg", "output:\n  trace: {times: [-1.0]}\n").find("output.trace.times[0]"), std::string::npos);
  EXPECT_NE(err("zero", "output:\n  trace: {every: 0}\n").find("output.trace.every"), std::string::npos);
  EXPECT_NE(err("key", "output:\n  trace: {each: 3}\n").find("output.trace.each"), std::string::npos);
  EXPECT_EQ(err("empty", "output:\n  trace: {times: []}\n"),
            "10:11: output.trace.times: the list is empty (expected at least one time (ns))\n");
  EXPECT_NE(err("none", "output:\n  trace: {}\n").find("output.trace: give exactly one"), std::string::npos);
}

}  // namespace
}  // namespace qevolve::testing
