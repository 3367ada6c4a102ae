#include "record.hpp"

#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::optimize {
namespace {

RMatrix rows_of(const std::vector<EvaluationRecord>& evals, RVector EvaluationRecord::*field) {
  const auto m = static_cast<Index>(evals.size());
  const Index n = m > 0 ? (evals.front().*field).size() : 0;
  RMatrix out(m, n);
  for (Index k = 0; k < m; ++k) {
    const RVector& v = evals[static_cast<std::size_t>(k)].*field;
    if (v.size() != n) throw Error("optimize: evaluation records of different lengths");
    out.row(k) = v.transpose();
  }
  return out;
}

RMatrix read_real(const std::string& path, const std::string& dataset) {
  const CMatrix m = io::read_complex_matrix(path, dataset);
  return m.real();
}

}  // namespace

void write_record(const std::string& path, const Record& record) {
  io::Hdf5Writer w(path);
  w.write("/x0", RMatrix(record.x0));
  RVector f(static_cast<Index>(record.evaluations.size()));
  for (std::size_t k = 0; k < record.evaluations.size(); ++k) f(static_cast<Index>(k)) = record.evaluations[k].f;
  w.write("/evaluations/f", RMatrix(f));
  w.write("/evaluations/x", rows_of(record.evaluations, &EvaluationRecord::x));
  w.write("/evaluations/gradient", rows_of(record.evaluations, &EvaluationRecord::gradient));
  const RMatrix aux = rows_of(record.evaluations, &EvaluationRecord::aux);
  w.attribute("aux_length", static_cast<long long>(aux.cols()));
  if (aux.cols() > 0) w.write("/evaluations/aux", aux);
  w.attribute("kind", std::string("qevolve optimize checkpoint"));
  w.commit();
}

Record read_record(const std::string& path) {
  Record r;
  const RMatrix x0 = read_real(path, "/x0");
  if (x0.cols() != 1) throw InputError(path + ": /x0: not a qevolve optimize checkpoint");
  r.x0 = x0.col(0);
  const RMatrix f = read_real(path, "/evaluations/f");
  const RMatrix x = read_real(path, "/evaluations/x");
  const RMatrix g = read_real(path, "/evaluations/gradient");
  const auto m = f.rows();
  if (f.cols() != 1 || x.rows() != m || g.rows() != m || x.cols() != r.x0.size() ||
      g.cols() != r.x0.size())
    throw InputError(path + ": inconsistent evaluation records (not a qevolve optimize checkpoint)");
  RMatrix aux;
  bool have_aux = true;
  try {
    aux = read_real(path, "/evaluations/aux");
  } catch (const InputError&) {
    have_aux = false;
  }
  if (have_aux && aux.rows() != m) throw InputError(path + ": inconsistent /evaluations/aux");
  for (Index k = 0; k < m; ++k) {
    EvaluationRecord e;
    e.x = x.row(k).transpose();
    e.f = f(k, 0);
    e.gradient = g.row(k).transpose();
    if (have_aux) e.aux = aux.row(k).transpose();
    r.evaluations.push_back(std::move(e));
  }
  return r;
}

}  // namespace qevolve::optimize
