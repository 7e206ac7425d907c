"""Every `sharding=` attribute, read and checked against its instruction's shape as XLA's
verifier checks it.

Source: xla/service/hlo_verifier.cc, InstructionVerifier::Preprocess, which runs
HloSharding::Validate(instruction shape, num_devices) on every instruction that has a
sharding, with num_devices the module's num_partitions when that is above 1 (else the
device count is not checked). Without this, a tile assignment of the wrong rank, a tuple
sharding on an array or a device named twice was cut and assembled by the launcher into a
wrong result (an f32[2,2] for an f32[4]). The rules: dynhlo.hlo.sharding.
Raises HloVerifyError naming the instruction and the sharding.
"""

from __future__ import annotations

from ...errors import HloVerifyError
from ..collectives import Devices
from ..ir import HloModule
from ..sharding import check_sharding, parse_sharding


def check_shardings(module: HloModule) -> None:
    """HloVerifyError for the first instruction whose sharding XLA's parser or verifier
    refuses for its shape and the module's num_partitions."""
    devices = None
    for inst in module.instructions():
        text = inst.attrs.get("sharding")
        if text is None:
            continue
        devices = devices or Devices.of(module)
        num_devices = devices.num_partitions if devices.num_partitions > 1 else None
        try:
            check_sharding(parse_sharding(text), inst.shape, num_devices)
        except HloVerifyError as exc:
            raise HloVerifyError(f"sharding={text}: {exc.message}", inst.name).locate(
                module.position_of(inst)) from None
