"""Phase 2 helpers of Kueue v0.19.2's TAS (S3): order domains, pick the best fit, and fill a
list of domains to the minimum (updateCountsToMinimumGeneric), leaders first.

BestFit orders by slices (most first), then pods (fewest first), then the domain's level
values; LeastFreeCapacity (unconstrained) by slices fewest first. With a leader, domains that
hold it come first. The last domain filled is the smallest one that still holds the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taugen.engines.placement.counts import Counts
from taugen.engines.placement.tree import DomainPath, TasDomain

Units = dict[DomainPath, int]


@dataclass(frozen=True)
class Order:
    counts: Counts
    lfc: bool  # LeastFreeCapacity (unconstrained, TASProfileMixed on by default) else BestFit

    def sorted(self, domains: Sequence[TasDomain]) -> list[TasDomain]:
        c, sign = self.counts, 1 if self.lfc else -1
        if c.slc is c.pod:  # a pod is its own slice: the same order, with a shorter key (speed)
            pods = c.pod
            return sorted(domains, key=lambda d: (sign * pods[d.path], d.path))
        return sorted(domains, key=lambda d: (sign * c.slc[d.path], c.pod[d.path], d.path))

    def sorted_with_leader(self, domains: Sequence[TasDomain]) -> list[TasDomain]:
        c, sign = self.counts, 1 if self.lfc else -1
        return sorted(
            domains, key=lambda d: (-c.lead[d.path], sign * c.slc_wl[d.path], c.pod_wl[d.path], d.path)
        )

    def best_fit(self, domains: Sequence[TasDomain], needed: int, leaders: int, units: Units) -> TasDomain:
        """The first domain with the fewest `units` that still holds `needed` (else the first)."""
        best, best_count = domains[0], None
        for domain in domains:
            if self.counts.lead[domain.path] < leaders:
                continue
            have = units[domain.path]
            if have >= needed and (best_count is None or have < best_count):
                best, best_count = domain, have
        return best

    def prioritize_leader(
        self, domains: list[TasDomain], count: int, leaders: int, size: int, slices: bool
    ) -> list[TasDomain]:
        """Kueue's prioritizeLeaderDomain: first a leader domain whose penalty the others absorb."""
        if leaders == 0 or len(domains) < 2:
            return domains
        c = self.counts
        units, with_leader = (c.slc, c.slc_wl) if slices else (c.pod, c.pod_wl)
        required = count // size if slices else count
        available = sum(units[d.path] for d in domains)
        for i, domain in enumerate(domains):
            if c.lead[domain.path] < leaders:
                continue
            if available - (units[domain.path] - with_leader[domain.path]) < required:
                continue
            return domains if i == 0 else [domain, *domains[:i], *domains[i + 1 :]]
        return domains

    def minimum(
        self, domains: list[TasDomain], count: int, leaders: int, size: int, slices: bool
    ) -> list[TasDomain]:
        """Fill in order (leaders first); the pods each chosen domain takes are left in `pod`."""
        domains = self.prioritize_leader(domains, count, leaders, size, slices)
        c = self.counts
        units = c.slc if slices else c.pod
        remaining = count // size if slices else count
        result: list[TasDomain] = []
        for i, domain in enumerate(domains):
            if leaders > 0:
                domain, done, remaining, leaders = self._consume(
                    domains[i:], remaining, leaders, size, slices
                )
                result.append(domain)
                if done:
                    return result
                continue
            if not self.lfc and units[domain.path] >= remaining:
                domain = self.best_fit(domains[i:], remaining, 0, units)
            path = domain.path
            c.lead[path] = 0
            result.append(domain)
            if units[path] >= remaining:
                c.pod[path], units[path] = remaining * (size if slices else 1), remaining
                return result
            c.pod[path] = units[path] * (size if slices else 1)
            remaining -= units[path]
        return []  # Kueue logs an assumption violation and assigns nothing

    def _consume(
        self, rest: list[TasDomain], remaining: int, leaders: int, size: int, slices: bool
    ) -> tuple[TasDomain, bool, int, int]:
        """Kueue's consumeWithLeadersGeneric for the first of `rest`."""
        c, domain = self.counts, rest[0]
        units, with_leader = (c.slc, c.slc_wl) if slices else (c.pod, c.pod_wl)
        factor = size if slices else 1
        if not self.lfc and with_leader[domain.path] >= remaining and c.lead[domain.path] >= leaders:
            domain = self.best_fit(rest, remaining, leaders, with_leader)
        path = domain.path
        if with_leader[path] >= remaining and c.lead[path] >= leaders:
            units[path], c.lead[path], c.pod[path] = remaining, leaders, remaining * factor
            return domain, True, remaining, leaders
        with_leader[path] = min(with_leader[path], remaining)
        c.lead[path] = min(c.lead[path], leaders)
        units[path] = with_leader[path]
        c.pod[path] = with_leader[path] * factor
        return domain, False, remaining - with_leader[path], leaders - c.lead[path]
