"""What the parts of qevolve_plot.py share: the errors, reading datasets, log axes and the units
of config keys (docs/units.md). Imported by qevolve_plot.py, qevolve_plot_sweep.py,
qevolve_plot_unitary.py and qevolve_plot_ensemble.py, which live beside it in scripts/."""
import re

import h5py
import numpy as np
from matplotlib.ticker import LogFormatterSciNotation

FLOOR = 1e-16           # 1 - F is drawn on log scales from here


class BadFile(Exception):
    """The file cannot be drawn; the message says why (printed after the file name)."""


class BadFlag(Exception):
    """A flag's value does not fit the file (`--population 7` for a one-qubit sweep); printed as
    `FLAG: problem (expected ...)`."""

    def __init__(self, flag, problem, expected):
        super().__init__(f"{flag}: {problem} (expected {expected})")


class CannotWrite(Exception):
    """The output cannot be written; the message names it."""


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def read(f, path):
    """The dataset's values; a compound {r, i} becomes complex."""
    if path not in f or not isinstance(f[path], h5py.Dataset):
        raise BadFile(f"{path}: no such dataset")
    a = f[path][()]
    if isinstance(a, np.ndarray) and a.dtype.names and set(a.dtype.names) >= {"r", "i"}:
        a = a["r"] + 1j * a["i"]
    return a


def strings(f, path):
    return [text(s) for s in np.ravel(read(f, path))]


def need_shape(path, array, shape):
    """`shape` with None for any length."""
    if array.ndim != len(shape) or any(s is not None and s != a for s, a in zip(shape, array.shape)):
        want = ", ".join("any" if s is None else str(s) for s in shape)
        raise BadFile(f"{path} has shape {list(array.shape)}, expected [{want}]")


def log_floor(values):
    return np.maximum(np.real(values), FLOOR)


def label_log_axis(axis):
    """Labels the minor ticks (2, 3, 5 x 10^k) of a log axis spanning less than two decades, which
    would otherwise show one label or none."""
    axis.set_minor_formatter(LogFormatterSciNotation(labelOnlyBase=False, minor_thresholds=(2, 0.5)))


def log_grid(ax):
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", alpha=0.08)



class Units:
    """Units of sweep keys (docs/units.md), from the last part of the key path."""
    TABLE = {"amplitude": "GHz", "frequency": "GHz", "values": "GHz", "anharmonicity": "GHz",
             "ec": "GHz", "ej": "GHz", "el": "GHz", "capacitive": "GHz", "inductive": "GHz",
             "dipole": "GHz", "cross_kerr": "GHz", "duration": "ns", "delay": "ns", "ramp": "ns",
             "plateau": "ns", "sigma": "ns", "lambda": "ns", "t1": "ns", "tphi": "ns", "phase": "rad",
             "angle": "rad", "flux": "Φ0", "ng": "2e", "steps": "", "rate": "1/ns"}

    def __init__(self, config, flux_pulses=None):
        # A flux pulse's amplitude and values are in flux quanta, not GHz (docs/pulses.md).
        # Files name those pulses (attribute flux_pulses); older ones only hold the config text.
        self.flux_set = None if flux_pulses is None else {int(p) for p in np.ravel(flux_pulses)}
        self.flux_pulses = bool(self.flux_set) or (
            flux_pulses is None and re.search(r"operator:\s*[\"']?flux", config or "") is not None)

    def is_flux(self, pulse):
        """True or False for pulse index `pulse`; None when the file does not say."""
        if self.flux_set is not None:
            return pulse in self.flux_set
        return None if self.flux_pulses else False

    def pulse_unit(self, pulse):
        flux = self.is_flux(pulse)
        return "GHz or Φ0" if flux is None else "Φ0" if flux else "GHz"

    LINE_TABLE = {"sigma": "ns", "tau": "ns", "sample_rate": "GS/s"}  # docs/config.md "lines"

    def unit(self, key):
        last = re.sub(r"\[.*?\]", "", key.split(".")[-1])
        if key.startswith("lines"):  # an exponential's amplitude and fir taps have no unit
            return self.LINE_TABLE.get(last, "")
        m = re.match(r"pulses\[(\d+)\]\.(amplitude|values)", key)
        if m:
            return self.pulse_unit(int(m.group(1)))
        return self.TABLE.get(last, "")

    def label(self, key):
        """`key [unit]` for an axis."""
        unit = self.unit(key)
        return f"{key} [{unit}]" if unit else key

    def value(self, key, v):
        """`key = v unit` for a title."""
        unit = self.unit(key)
        return f"{key} = {v:.6g}" + (f" {unit}" if unit else "")
