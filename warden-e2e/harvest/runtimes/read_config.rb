# Reads a file the caller names, relative to the app's data directory; an uncaught error prints its backtrace.
def load_config(name)
  File.read(File.join(ENV.fetch("APP_DATA_DIR"), name))
end
puts load_config(ARGV[0])
