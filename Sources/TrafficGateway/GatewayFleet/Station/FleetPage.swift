/// The ground station's page (`/`, `/fleet.css`, `/fleet.js`): the fleet on one map-like view
/// with tracks and alert state, each gateway's last contact, the club logbook and the live alert
/// strip. Its files, under `GatewayFleet/Page`, are embedded by `scripts/embed-page.py` into
/// `FleetPageFiles.swift`.
package enum FleetPage {}
