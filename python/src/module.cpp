// qevolve._core: the nanobind bindings of include/qevolve/session.hpp. Type conversion only
// (docs/python.md): every number comes from the C++ library; the engine runs with the GIL
// released. Arrays are NumPy views of the library's own storage where the layout allows.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <complex>
#include <exception>
#include <utility>

#include "qevolve/error.hpp"
#include "qevolve/session.hpp"
#include "qevolve/version.hpp"

namespace nb = nanobind;
using qevolve::CMatrix;
using qevolve::RVector;
using qevolve::commands::ConvergeData;
using qevolve::commands::EnsembleData;
using qevolve::commands::OptimizeData;
using qevolve::commands::RunResult;
using qevolve::commands::Session;
using qevolve::commands::SpectrumData;
using qevolve::commands::SweepData;

namespace {

using ComplexView = nb::ndarray<nb::numpy, const std::complex<double>, nb::ndim<2>>;
using RealView = nb::ndarray<nb::numpy, const double>;
using RealArray = nb::ndarray<nb::numpy, double>;

/// Storage for an empty array (a null data pointer is not a valid view).
const std::complex<double> kNothing[1] = {};

/// A read-only NumPy view of an Eigen matrix (column-major: Fortran strides), kept alive by
/// `owner`, the Python object that holds the matrix.
ComplexView view(const CMatrix& m, nb::handle owner) {
  const size_t shape[2] = {static_cast<size_t>(m.rows()), static_cast<size_t>(m.cols())};
  const int64_t strides[2] = {1, static_cast<int64_t>(m.rows())};
  return ComplexView(m.size() ? m.data() : kNothing, 2, shape, owner, strides);
}

RealView view(const double* data, const std::vector<size_t>& shape, nb::handle owner) {
  static const double nothing[1] = {};
  size_t n = 1;
  for (size_t s : shape) n *= s;
  return RealView(n ? data : nothing, shape.size(), shape.data(), owner);
}

RealView view(const RVector& v, nb::handle owner) { return view(v.data(), {static_cast<size_t>(v.size())}, owner); }

/// A read-only view of a real Eigen matrix (column-major: Fortran strides).
RealView view(const qevolve::RMatrix& m, nb::handle owner) {
  static const double nothing[1] = {};
  const size_t shape[2] = {static_cast<size_t>(m.rows()), static_cast<size_t>(m.cols())};
  const int64_t strides[2] = {1, static_cast<int64_t>(m.rows())};
  return RealView(m.size() ? m.data() : nothing, 2, shape, owner, strides);
}

RealView view(const std::vector<double>& v, const std::vector<size_t>& shape, nb::handle owner) {
  return view(v.data(), shape, owner);
}

/// A NumPy array that owns a copy of `v` (results computed on the fly, e.g. a sweep's figures).
RealArray owned(std::vector<double> v, std::vector<size_t> shape) {
  auto* heap = new std::vector<double>(std::move(v));
  nb::capsule free(heap, [](void* p) noexcept { delete static_cast<std::vector<double>*>(p); });
  return RealArray(heap->data(), shape.size(), shape.data(), free);
}

RVector to_rvector(const nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>& x) {
  RVector v(static_cast<qevolve::Index>(x.shape(0)));
  for (size_t i = 0; i < x.shape(0); ++i) v(static_cast<qevolve::Index>(i)) = x(i);
  return v;
}

PyObject* g_config_error = nullptr;
PyObject* g_numerical_error = nullptr;

/// InputError -> qevolve.ConfigError(message) with .key_path, .file, .line, .column, .problem;
/// NumericalError -> qevolve.NumericalError; any other qevolve Error -> RuntimeError.
void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const qevolve::InputError& e) {
    nb::object error = nb::borrow(g_config_error)(nb::str(e.what()));
    error.attr("key_path") = nb::str(e.key_path().c_str());
    error.attr("file") = nb::str(e.where().file.c_str());
    error.attr("line") = e.where().line;
    error.attr("column") = e.where().column;
    error.attr("problem") = nb::str(e.problem().c_str());
    PyErr_SetObject(g_config_error, error.ptr());
  } catch (const qevolve::NumericalError& e) {
    PyErr_SetString(g_numerical_error, e.what());
  } catch (const qevolve::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

void bind_run_result(nb::module_& m) {
  nb::class_<RunResult>(m, "RunResult", "One evaluation (qevolve run): see qevolve.Result.")
      .def_prop_ro("has_fidelity", &RunResult::has_fidelity)
      .def_prop_ro("fidelity", &RunResult::fidelity)
      .def_prop_ro("fidelity_uncompensated", &RunResult::fidelity_uncompensated)
      .def_prop_ro("leakage", &RunResult::leakage)
      .def_prop_ro("fidelity_error_steps", &RunResult::fidelity_error_steps)
      .def_prop_ro("is_open", &RunResult::is_open)
      .def_prop_ro("angles", [](nb::handle self) { return view(nb::cast<const RunResult&>(self).angles(), self); })
      .def_prop_ro("unitary", [](nb::handle self) { return view(nb::cast<const RunResult&>(self).unitary(), self); })
      .def_prop_ro("unitary_compensated",
                   [](nb::handle self) { return view(nb::cast<const RunResult&>(self).unitary_compensated(), self); })
      .def_prop_ro("propagator",
                   [](nb::handle self) { return view(nb::cast<const RunResult&>(self).propagator(), self); })
      .def_prop_ro("superoperator",
                   [](nb::handle self) { return view(nb::cast<const RunResult&>(self).superoperator(), self); })
      .def_prop_ro("gradient_names", &RunResult::gradient_names)
      .def_prop_ro("gradient_values",
                   [](nb::handle self) { return view(nb::cast<const RunResult&>(self).gradient(), self); })
      .def_prop_ro("resolved", &RunResult::resolved)
      .def_prop_ro("initial_labels", &RunResult::initial_labels)
      .def_prop_ro("dims", &RunResult::dims)
      .def_prop_ro("warnings", &RunResult::warnings)
      .def_prop_ro("top_level_population", &RunResult::top_level_population)
      .def_prop_ro("evolve_seconds", &RunResult::evolve_seconds)
      .def_prop_ro("fidelity_seconds", &RunResult::fidelity_seconds)
      .def_prop_ro("gradient_seconds", &RunResult::gradient_seconds)
      .def_prop_ro("has_trace", [](const RunResult& r) { return r.trace().has_value(); })
      .def("trace_arrays",
           [](nb::handle self) {
             const auto& t = *nb::cast<const RunResult&>(self).trace();
             const auto T = t.time.size();
             const auto n = static_cast<size_t>(t.columns);
             nb::dict d;
             d["time"] = view(t.time, {T}, self);
             if (t.has_populations) d["populations"] = view(t.populations.data(), {T, static_cast<size_t>(t.dim), n}, self);
             d["mode_populations"] = view(t.mode_populations,
                                          {T, static_cast<size_t>(t.modes), static_cast<size_t>(t.levels), n}, self);
             if (t.open) d["trace"] = view(t.trace, {T, n}, self);
             return d;
           })
      .def("pulse_arrays",
           [](nb::handle self) {
             const qevolve::solver::PulseSamples& ps = nb::cast<const RunResult&>(self).pulses();
             const auto rows = [&ps](const std::vector<std::vector<double>>& v) {
               std::vector<double> flat;
               flat.reserve(v.size() * ps.time.size());
               for (const auto& row : v) flat.insert(flat.end(), row.begin(), row.end());
               return owned(std::move(flat), {v.size(), ps.time.size()});
             };
             nb::dict d;
             d["time"] = view(ps.time, {ps.time.size()}, self);
             d["values"] = rows(ps.values);
             d["names"] = ps.names;
             if (!ps.ideal.empty()) d["ideal"] = rows(ps.ideal);
             return d;
           })
      .def_prop_ro("ensemble", [](nb::handle self) -> nb::object {
        const EnsembleData* e = nb::cast<const RunResult&>(self).ensemble();
        if (!e) return nb::none();
        const std::vector<size_t> k{e->weights.size()};
        nb::dict d;
        d["objective"] = e->objective;
        d["overrides"] = e->overrides;
        d["weights"] = view(e->weights, k, self);
        d["fidelity"] = view(e->fidelity, k, self);
        d["fidelity_uncompensated"] = view(e->fidelity_uncompensated, k, self);
        d["leakage"] = view(e->leakage, k, self);
        d["fidelity_error_steps"] = view(e->step_error, k, self);
        d["steps"] = e->steps;
        d["worst"] = e->worst;
        if (!e->unitaries.empty()) {
          nb::list u;
          for (const CMatrix& unitary : e->unitaries) u.append(view(unitary, self));
          d["unitaries"] = u;
        }
        return d;
      })
      .def("save", &RunResult::save, nb::arg("path"), nb::call_guard<nb::gil_scoped_release>());
}

void bind_sweep(nb::module_& m) {
  nb::class_<SweepData>(m, "SweepData", "A sweep grid (qevolve sweep): see qevolve.SweepResult.")
      .def_prop_ro("shape", &SweepData::shape)
      .def_prop_ro("keys", &SweepData::keys)
      .def("axis_values",
           [](const SweepData& s, size_t k) { return owned(s.axis_values(k), {s.axis_values(k).size()}); })
      .def("axis_texts", &SweepData::axis_texts)
      .def_prop_ro("labels", &SweepData::labels)
      .def_prop_ro("builds", &SweepData::builds)
      .def_prop_ro("warnings", &SweepData::warnings)
      .def("figure",
           [](const SweepData& s, const std::string& name) {
             std::vector<size_t> shape;
             for (auto n : s.shape()) shape.push_back(static_cast<size_t>(n));
             if (name == "populations") {
               shape.push_back(s.labels().size());
               shape.push_back(s.labels().size());
               return owned(s.populations(), shape);
             }
             if (name == "fidelity") return owned(s.fidelity(), shape);
             if (name == "fidelity_uncompensated") return owned(s.fidelity_uncompensated(), shape);
             if (name == "leakage") return owned(s.leakage(), shape);
             if (name == "conditional_phase") return owned(s.conditional_phase(), shape);
             throw nb::key_error(name.c_str());
           })
      .def("save", &SweepData::save, nb::arg("path"), nb::call_guard<nb::gil_scoped_release>());
}

void bind_data(nb::module_& m) {
  nb::class_<SpectrumData>(m, "SpectrumData")
      .def_prop_ro("energies", [](nb::handle self) { return view(nb::cast<const SpectrumData&>(self).energies, self); })
      .def_ro("labels", &SpectrumData::labels)
      .def_ro("warnings", &SpectrumData::warnings)
      .def_ro("modes", &SpectrumData::modes)
      .def_ro("types", &SpectrumData::types)
      .def_ro("f01_bare", &SpectrumData::f01_bare)
      .def_ro("f12_bare", &SpectrumData::f12_bare)
      .def_ro("f01_dressed", &SpectrumData::f01_dressed)
      .def_ro("phi01", &SpectrumData::phi01)
      .def_ro("n01", &SpectrumData::n01)
      .def_ro("zz_pairs", &SpectrumData::zz_pairs)
      .def_ro("zz_khz", &SpectrumData::zz_khz)
      .def_ro("gradient_names", &SpectrumData::gradient_names)
      .def("gradient", [](nb::handle self, const std::string& figure) {
        const auto& s = nb::cast<const SpectrumData&>(self);
        if (figure == "energies") return view(s.energies_gradient, self);
        if (figure == "f01_bare") return view(s.f01_bare_gradient, self);
        if (figure == "f12_bare") return view(s.f12_bare_gradient, self);
        if (figure == "f01_dressed") return view(s.f01_dressed_gradient, self);
        if (figure == "zz_khz") return view(s.zz_khz_gradient, self);
        throw nb::key_error(figure.c_str());
      });
  nb::class_<OptimizeData>(m, "OptimizeData")
      .def_prop_ro("result", [](const OptimizeData& o) { return *o.result; })
      .def_ro("names", &OptimizeData::names)
      .def_prop_ro("x0", [](nb::handle self) { return view(nb::cast<const OptimizeData&>(self).x0, self); })
      .def_prop_ro("x", [](nb::handle self) { return view(nb::cast<const OptimizeData&>(self).x, self); })
      .def_ro("iteration", &OptimizeData::iteration)
      .def_ro("infidelity", &OptimizeData::infidelity)
      .def_ro("leakage", &OptimizeData::leakage)
      .def_ro("objective", &OptimizeData::objective)
      .def_ro("gradient_norm", &OptimizeData::gradient_norm)
      .def_ro("step", &OptimizeData::step)
      .def_ro("wall_time_s", &OptimizeData::wall_time_s)
      .def_ro("stop_reason", &OptimizeData::stop_reason)
      .def_ro("evaluations", &OptimizeData::evaluations)
      .def_ro("optimized_yaml", &OptimizeData::optimized_yaml);
  nb::class_<ConvergeData>(m, "ConvergeData")
      .def_ro("settings", &ConvergeData::settings)
      .def_ro("verdicts", &ConvergeData::verdicts)
      .def_ro("fidelity", &ConvergeData::fidelity)
      .def_ro("change", &ConvergeData::change)
      .def_ro("estimate", &ConvergeData::estimate)
      .def_ro("seconds", &ConvergeData::seconds)
      .def_ro("table", &ConvergeData::table)
      .def_ro("steps", &ConvergeData::steps)
      .def_ro("modes", &ConvergeData::modes)
      .def_ro("levels", &ConvergeData::levels)
      .def_ro("final_fidelity", &ConvergeData::final_fidelity)
      .def_ro("final_estimate", &ConvergeData::final_estimate)
      .def_ro("converged", &ConvergeData::converged)
      .def_ro("stop_reason", &ConvergeData::stop_reason)
      .def_ro("converged_yaml", &ConvergeData::converged_yaml)
      .def_ro("wall_time", &ConvergeData::wall_time);
}

/// The trainable parameters: names, bounds, scales, values, value_and_grad.
void bind_parameters(nb::class_<Session>& session) {
  using Strings = std::vector<std::string>;
  session
      .def_prop_ro("parameter_names",
                   [](Session& s) {
                     Strings names;
                     for (const auto& p : s.parameters()) names.push_back(p.name);
                     return names;
                   })
      .def_prop_ro("bounds",
                   [](Session& s) {
                     std::vector<std::pair<double, double>> b;
                     for (const auto& p : s.parameters()) b.emplace_back(p.lower, p.upper);
                     return b;
                   })
      .def_prop_ro("scales",
                   [](Session& s) {
                     std::vector<double> v;
                     for (const auto& p : s.parameters()) v.push_back(p.scale);
                     const size_t n = v.size();
                     return owned(std::move(v), {n});
                   },
                   nb::rv_policy::automatic)
      .def_prop_ro("x0",
                   [](Session& s) {
                     const RVector x = s.x0();
                     return owned(std::vector<double>(x.begin(), x.end()), {static_cast<size_t>(x.size())});
                   },
                   nb::rv_policy::automatic)  // a new array: not a reference into the session
      .def(
          "value_and_grad",
          [](Session& s, const nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>& x, bool scaled) {
            const RVector theta = to_rvector(x);
            std::pair<double, RVector> vg;
            {
              nb::gil_scoped_release release;
              vg = s.value_and_grad(theta, scaled);
            }
            const size_t n = static_cast<size_t>(vg.second.size());
            return std::make_pair(vg.first, owned(std::vector<double>(vg.second.begin(), vg.second.end()), {n}));
          },
          nb::arg("x"), nb::arg("scaled"));
}

void bind_session(nb::module_& m) {
  using Strings = std::vector<std::string>;
  using Release = nb::call_guard<nb::gil_scoped_release>;
  auto session = nb::class_<Session>(m, "Session", "A parsed config and its cached simulator: see qevolve.Simulation.");
  session
      .def(nb::init<std::string, std::string, Strings, int>(), nb::arg("text"), nb::arg("name"), nb::arg("sets"),
           nb::arg("threads"), Release())
      .def_static("from_file", &Session::from_file, nb::arg("path"), nb::arg("sets"), nb::arg("threads"), Release())
      .def("run", &Session::run, nb::arg("overrides"), Release())
      .def(
          "gradient",
          [](Session& s, const Strings& o) {
            std::pair<Strings, RVector> g;
            {
              nb::gil_scoped_release release;
              g = s.gradient(o);
            }
            nb::dict d;
            for (size_t i = 0; i < g.first.size(); ++i)
              d[g.first[i].c_str()] = g.second(static_cast<qevolve::Index>(i));
            return d;
          },
          nb::arg("overrides"))
      .def("sweep", &Session::sweep, nb::arg("vary"), nb::arg("overrides"), Release())
      .def("spectrum", &Session::spectrum, nb::arg("overrides"), nb::arg("gradient"), Release())
      .def(
          "optimize",
          [](Session& s, const Strings& o, const std::string& resume, bool verbose) {
            std::function<void(const std::string&)> line;
            if (verbose)  // from the engine's thread, without the GIL: straight to stderr
              line = [](const std::string& text) { std::fputs(text.c_str(), stderr); };
            nb::gil_scoped_release release;
            return s.optimize(o, resume, line);
          },
          nb::arg("overrides"), nb::arg("resume"), nb::arg("verbose"))
      .def("converge", &Session::converge, nb::arg("tolerance"), nb::arg("overrides"), Release())
      .def_prop_ro("ensemble_builds", &Session::ensemble_builds)
      .def_prop_ro("threads", &Session::threads)
      .def_prop_ro("text", &Session::text)
      .def_prop_ro("name", &Session::name);
  bind_parameters(session);
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "qevolve's engine (the bindings behind the `qevolve` package; docs/python.md).";
  m.attr("__version__") = qevolve::kVersion;
  g_config_error = PyErr_NewExceptionWithDoc(
      "qevolve.ConfigError",
      "Bad input (config, override, input file): the message is the CLI's `FILE:LINE:COL: key.path: "
      "problem`; .key_path, .file, .line, .column and .problem hold its parts.",
      PyExc_ValueError, nullptr);
  g_numerical_error = PyErr_NewExceptionWithDoc(
      "qevolve.NumericalError", "A numerical failure (NaN, lost unitarity, non-convergence): the CLI's exit code 3.",
      PyExc_ArithmeticError, nullptr);
  m.attr("ConfigError") = nb::handle(g_config_error);
  m.attr("NumericalError") = nb::handle(g_numerical_error);
  nb::register_exception_translator(translate);
  bind_run_result(m);
  bind_sweep(m);
  bind_data(m);
  bind_session(m);
}
