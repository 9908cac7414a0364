"""Assess a project: read the impact layer, classify every polygon, apply the rules.

:func:`assess` is the one call an analyst makes, for every engine: it makes its keywords
into one :class:`AssessRequest` and hands it to the engine it names
(:func:`assess_request`): the default one pass (:func:`~wetland_gis.assessment.assess_in_memory`)
or the partitioned engines (:mod:`wetland_gis.partitioned`). The request, the result and the
one pass live in :mod:`wetland_gis.assessment`, below both, so neither imports the other
back; their names are importable from here as before.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import geopandas as gpd
import pandas as pd

from wetland_gis import partitioned
from wetland_gis.assessment import (
    CLAIM_OPTIONS as CLAIM_OPTIONS,
    DECISION_COLUMNS as DECISION_COLUMNS,
    DEFAULT_CHUNK_SIZE as DEFAULT_CHUNK_SIZE,
    ENGINES as ENGINES,
    MAP_ZONE_PAD_FT as MAP_ZONE_PAD_FT,
    NO_PROJECT as NO_PROJECT,
    Assessment,
    AssessOptions,
    AssessRequest,
    assess_in_memory,
    check_engine_options as check_engine_options,
    clean_and_type as clean_and_type,
    map_layers as map_layers,
    map_zones_later as map_zones_later,
    read_impacts as read_impacts,
    record_context as record_context,
)
from wetland_gis.context import Context
from wetland_gis.parameters import ParameterSet


def assess(
    impacts: str | Path | gpd.GeoDataFrame,
    context: str | Path | Context | None = None,
    *,
    layer: str | None = None,
    as_of: str | dt.date | None = None,
    fields: Mapping[str, str] | None = None,
    assume_crs: str | None = None,
    params: ParameterSet | None = None,
    options: AssessOptions | None = None,
    progress: Callable[[str], None] | None = None,
    shoreland_classes: str | Path | pd.DataFrame | None = None,
    class_source: str = "dnr",
    override_crs: str | None = None,
    row_numbers: Sequence[int] | None = None,
    register: Any = None,
    check_memory: bool = True,
    engine: str = "default",
    chunk_size: int | None = None,
    scheduler: str | None = None,
    scheduler_timeout: float | None = None,
    n_workers: int | None = None,
    progress_bar: bool = True,
) -> Assessment:
    """Classify every impact polygon and decide the project's exemptions and replacement.

    The one entry of every engine: the keywords are made into one
    :class:`AssessRequest`, which the engine named by ``engine`` takes
    (:func:`assess_request`), as geopandas' ``read_file`` dispatches on ``engine=``.

    Parameters
    ----------
    impacts : str, Path or GeoDataFrame
        The impact layer: shapefile (file, folder or ``.zip``), GeoPackage, GeoJSON,
        GeoParquet, or a GeoDataFrame with a CRS.
    context : str, Path or Context, optional
        The reference layers (``docs/data_schema.md``); default: the shipped counties only.
    layer : str, optional
        Layer name inside a GeoPackage.
    as_of : str or date, optional
        Application date the legal parameters are read for (default today).
    fields : Mapping[str, str], optional
        Column names by role (``impact_id``, ``wetland_type``, ``cowardin``, ``project``,
        ``cedar_tamarack``, ``impact_kind``, ``land_use``, ``wetland_acres``); the
        defaults of :func:`wetland_gis.io.fields.resolve_fields` otherwise.
    assume_crs : str, optional
        CRS for a layer that has none (recorded); without it such a layer is an error.
        It applies only to a layer without a CRS (``--assume-crs``).
    params : ParameterSet, optional
        Legal parameters (default: the shipped, cited tree).
    options : AssessOptions, optional
        The analyst's choices (readings, increases claimed, tolerance).
    progress : callable, optional
        Called with a short message at each step (the CLI prints them).
    shoreland_classes : str, Path or DataFrame, optional
        The DNR basin shoreland classification list; basins without ``shore_class`` take
        theirs from it (:func:`wetland_gis.context.load_context`, ``docs/context.md``).
    class_source : {"dnr", "local"}, default "dnr"
        The list's DNR class, or the county or city ordinance's where it governs.
    override_crs : str, optional
        CRS that replaces the layer's own when its ``.prj`` is wrong (``--override-crs``,
        e.g. ``"EPSG:26915"``): the coordinates are kept and declared to be in it; the
        old and new CRS are in the manifest (``settings["crs_overrides"]``). Not with
        ``assume_crs``.
    row_numbers : sequence of int, optional
        The input row number (``wg_row``) of each row when ``impacts`` is a part of a
        larger layer (the partitioned engines), so that records name the rows of the
        whole layer. Default: the rows' positions.
    register : Register, str or Path, optional
        The LGU's decision register (:class:`wetland_gis.register.Register`, a GeoPackage
        path or a ``postgresql://`` URL): fills each impact's prior area since 1992,
        banked, used-for-credit and determined type before the rules run
        (docs/register.md). The manifest names it by its id, never by its URL. Default
        engine only.
    check_memory : bool, default True
        Before classifying, estimate the memory the run needs
        (:func:`wetland_gis.memory.check_fits`) and stop with
        :class:`~wetland_gis.errors.InsufficientMemoryError`, naming ``chunk_size=``, when
        it exceeds the memory available; False runs anyway. The partitioned engines
        check each partition.
    engine : {"default", "chunks", "dask"}, default "default"
        ``"default"``: one pass in memory; ``"chunks"``: partitions of whole projects one
        after another in this process; ``"dask"``: one dask task per partition
        (:mod:`wetland_gis.partitioned`, ``docs/scale.md``). The result is the same.
    chunk_size : int, optional
        Impacts per partition (whole projects; default :data:`DEFAULT_CHUNK_SIZE`). The
        chunks and dask engines only.
    scheduler : str, optional
        Address of a running dask.distributed scheduler (``tcp://host:8786``); without
        it ``engine="dask"`` starts a local cluster. The dask engine only.
    scheduler_timeout : float, optional
        Seconds to wait for that scheduler (default
        :data:`wetland_gis.partitioned.SCHEDULER_TIMEOUT_S`); then an :class:`InputError`
        says that the scheduler at that address did not answer.
    n_workers : int, optional
        Workers of the dask engine's local cluster (default 2).
    progress_bar : bool, default True
        The partitioned engines' tqdm bar over the impacts done.

    Returns
    -------
    Assessment

    Raises
    ------
    InputError
        When the layer cannot be read, has no CRS, or a named field is missing; for an
        unknown engine or engine options that would do nothing (:class:`AssessRequest`).
    InsufficientMemoryError
        With ``check_memory``, when the layer would not fit in memory.
    """
    request = AssessRequest.of(
        impacts,
        context,
        layer=layer,
        as_of=as_of,
        fields=fields,
        assume_crs=assume_crs,
        params=params,
        options=options,
        progress=progress,
        shoreland_classes=shoreland_classes,
        class_source=class_source,
        override_crs=override_crs,
        row_numbers=row_numbers,
        register=register,
        check_memory=check_memory,
        engine=engine,
        chunk_size=chunk_size,
        scheduler=scheduler,
        scheduler_timeout=scheduler_timeout,
        n_workers=n_workers,
        progress_bar=progress_bar,
    )
    return assess_request(request)


def assess_request(request: AssessRequest) -> Assessment:
    """Run the engine ``request.engine`` names on ``request``; the result of :func:`assess`.

    Parameters
    ----------
    request : AssessRequest
        The assessment asked for.

    Returns
    -------
    Assessment
    """
    if request.engine == "default":
        return assess_in_memory(request)
    # the partitioned engines run the default engine on each partition
    return partitioned.assess_partitions(request)
