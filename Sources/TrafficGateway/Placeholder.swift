import GDL90
import GRDB
public enum GatewayPlaceholder {}
