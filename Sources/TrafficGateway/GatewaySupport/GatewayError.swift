/// Errors a person can act on, naming what went wrong and where, by kind: each is thrown where
/// the fault is seen, with the file, socket, setting or part it is about.
public enum GatewayError: Error, CustomStringConvertible, Equatable {
    /// The database could not be opened or written.
    case database(path: String, reason: String)
    /// A socket could not be set up.
    case socket(what: String, reason: String)
    /// A file could not be read or written.
    case file(path: String, reason: String)
    /// A file that should be there cannot be opened (`what`: "airspace file", "NOTAM file"…).
    case unreadable(what: String, path: String)
    /// What a file or a reply holds is not what it should be, at `place` (the file, an item or
    /// feature of it).
    case content(place: String, reason: String)
    /// A flag, argument or configuration key (`name`) has a value that cannot be used; `message`
    /// says which and what to give instead.
    case setting(name: String, message: String)
    /// Something could not keep up with what it was handed, and dropped some (`lost`: what).
    case notKeepingUp(what: String, lost: String)
    /// A remote service's answer was refused (`source`: which service).
    case upstream(source: String, reason: String)
    /// A program we ran failed.
    case subprocess(name: String, status: Int32)

    /// What went wrong, without the path or the part named.
    public var reason: String {
        switch self {
        case .database(_, let reason), .socket(_, let reason), .file(_, let reason), .content(_, let reason), .upstream(_, let reason): reason
        case .unreadable: "no such file or not readable"
        case .setting(_, let message): message
        case .notKeepingUp(_, let lost): "not keeping up (\(lost) so far)"
        case .subprocess(_, let status): "exited with status \(status)"
        }
    }

    /// One sentence.
    public var description: String {
        switch self {
        case .database(let path, let reason): "database \(path): \(reason)"
        case .socket(let what, let reason): "\(what): \(reason)"
        case .file(let path, let reason): "\(path): \(reason)"
        case .unreadable(let what, let path): "cannot read \(what) \(path): no such file or not readable"
        case .content(let place, let reason): "\(place): \(reason)"
        case .setting(_, let message): message
        case .notKeepingUp(let what, let lost): "\(what) is not keeping up (\(lost) so far)"
        case .upstream(let source, let reason): "\(source) \(reason)"
        case .subprocess(let name, let status): "\(name) exited with status \(status)"
        }
    }
}
