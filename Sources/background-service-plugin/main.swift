import BackgroundServicePlugin

PluginMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
