#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit. systemd and shells start services at a soft limit of 1,024;
/// the hard limit is usually far higher, and a gateway serving feeds to a cockpit's worth of
/// devices while refusing a hostile neighbour's thousand connections needs the headroom.
package enum DescriptorLimit {
    /// Raises the soft limit to the hard one (capped at `ceiling`); returns the limit now in force.
    @discardableResult
    package static func raiseSoftLimit(ceiling: UInt64 = 65_536) -> UInt64 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(wanted) }
        }
        return UInt64(limit.rlim_cur)
    }
}
