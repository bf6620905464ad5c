import Foundation
import HostCLI

exit(HostCLI.main(Array(CommandLine.arguments.dropFirst())))
