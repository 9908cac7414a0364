"""Exception and warning classes of wetland_gis.

Every error raised on purpose by the package is a :class:`WetlandGISError`, so a
caller can catch the package's errors without catching programming errors.
Messages name the file, layer, row or parameter at fault and say how to fix it.
"""

from __future__ import annotations

import warnings
from collections.abc import MutableSequence


class WetlandGISError(Exception):
    """Base class of every error that wetland_gis raises on purpose."""


class ParameterError(WetlandGISError):
    """The legal parameter tree is malformed, or a parameter key is unknown."""


class ParameterNotInForce(ParameterError):
    """A parameter has no value in force on the date asked for."""


class InputError(WetlandGISError):
    """An input file or layer cannot be read as given."""


class MissingCRSError(InputError):
    """A layer has no coordinate reference system."""


class LayerNotFoundError(InputError):
    """A named layer is not in the file; the message lists the layers that are."""


class FieldMappingError(InputError):
    """A required attribute column is missing or cannot be mapped."""


class WetlandTypeError(InputError, ValueError):
    """A wetland type value or Cowardin code cannot be read as a Circular 39 type.

    The message gives the value and the accepted forms, so a caller can record the
    row as "not assessed" with that reason.
    """


class ValueParseError(InputError, ValueError):
    """An attribute value cannot be read as the boolean, number or id it must be.

    Raised by :mod:`wetland_gis.io.values`; the message gives the value and the accepted
    spellings. Readers that know the file, layer and row catch it and say where.
    """


class RulesInputError(WetlandGISError, ValueError):
    """A rules-core function received a value outside its allowed set."""


class CountyNameError(ValueParseError, RulesInputError):
    """A county name is not text (:func:`wetland_gis.names.normalise_county`).

    A :class:`ValueParseError` to a reader of user data and a :class:`RulesInputError` to the
    rules core, which both match county names with the one normalisation.
    """


class OutputError(WetlandGISError):
    """An output file cannot be written as asked (format, driver or layer contents)."""


class ContextError(InputError):
    """A reference (context) layer is missing a required layer or field."""


class InvalidAreaError(WetlandGISError, ValueError):
    """An area is not a finite number of square feet, 0 or more."""


class MappingInputError(WetlandGISError, ValueError):
    """An argument of the map or report functions is outside its allowed set."""


class OfflineAssetError(WetlandGISError):
    """A page needs a script or stylesheet that is not vendored, or a vendored file is missing."""


class MissingExtraError(WetlandGISError):
    """An option needs an extra of the package that is not installed (``scale``, ``pdf``)."""


class InsufficientMemoryError(WetlandGISError, MemoryError):
    """An in-memory run would need more memory than the machine has available.

    Raised before the work starts; the message gives the estimate and how to run in
    chunks instead (``chunk_size=``, ``--chunk-size``).
    """


class OverlappingWetlandsError(InputError):
    """Two wetlands of a delineation overlap; the message names both rows and the area."""


class MissingLateralEffectError(InputError):
    """A drainage line has no lateral effect distance (a column value or the option)."""


class AllocationError(WetlandGISError):
    """The allocation could not be solved; the message says which stage and why."""


class RegisterError(WetlandGISError):
    """The register cannot be opened, is not a register, or refused a record."""


class RegisterVersionError(RegisterError):
    """The register's schema version is not this package's (newer, or older: upgrade it)."""


class RegisterUpgradeRequired(RegisterVersionError):
    """The register is of an older schema version: run ``wetland-gis register upgrade``."""


class WetlandGISWarning(UserWarning):
    """Base class of the domain warnings, so users can filter them together."""


class ThresholdToleranceWarning(WetlandGISWarning):
    """An area lies within the measurement tolerance of a legal threshold."""


class InferredWetlandTypeWarning(WetlandGISWarning):
    """A Circular 39 type was inferred (e.g. from a Cowardin code), not given."""


class OutputTruncationWarning(WetlandGISWarning):
    """An output format could not hold a value whole (e.g. shapefile text over 254 bytes)."""


class InputRepairWarning(WetlandGISWarning):
    """An input geometry or attribute was repaired, reprojected or dropped; it is recorded."""


class LeftoverStagingWarning(WetlandGISWarning):
    """A staging folder of an earlier, interrupted run lies beside an output.

    It is removed when the run that made it is known to be gone; otherwise the message
    gives its path.
    """


class EmptyLayerWarning(WetlandGISWarning):
    """An input layer has no features: the outputs are empty (``--strict`` exits 3)."""


class ImpactExceedsWetlandWarning(WetlandGISWarning):
    """An impact's area is larger than the ``wetland_ac`` given for its wetland."""


class FieldNameWarning(WetlandGISWarning):
    """A column is not read but looks like the name of a field role (``impact_k_1``).

    The message names the role and the option that maps the column to it
    (``--field ROLE=COLUMN``, ``fields={role: column}``).
    """


class DeprecatedOptionWarning(WetlandGISWarning):
    """A command-line option that still works is deprecated; the message names its successor."""


class SmallImpactWarning(WetlandGISWarning):
    """An impact cut from the footprint is smaller than 1 sq ft; it is kept."""


class MissingContextWarning(WetlandGISWarning):
    """A context layer or feature the screening needs is missing for some impacts.

    No LGU polygon over an impact (its shoreland ordinance unknown), no public water
    within the search radius (one mile) of an impact, no calcareous fen layer: the answer
    rests on an assumption a person must verify. Each is also in the manifest
    (``missing_context``) and the report's verify section (issue 30).
    """


def warn_recorded(
    message: str,
    category: type[Warning],
    records: MutableSequence[str] | None,
    *,
    stacklevel: int = 2,
) -> None:
    """Give ``message`` as a ``category`` warning and keep it in ``records`` (the manifest's).

    Parameters
    ----------
    message : str
    category : Warning subclass
    records : list of str or None
        Where the run records what it warned of; ``None``: the warning only.
    stacklevel : int, default 2
        As :func:`warnings.warn`, counted from the caller of this function.
    """
    if records is not None:
        records.append(message)
    warnings.warn(message, category, stacklevel=stacklevel + 1)
