import Foundation
import PluginHost

exit(HostCLI.main(Array(CommandLine.arguments.dropFirst())))
