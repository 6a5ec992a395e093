# ruby-ext.rb [--pause FIFO]: ruby with C extensions (each dlopened by ruby):
# nokogiri (on Debian's libxml2), json, zlib, openssl, psych (libyaml), digest.
# With --pause: `paused PID`, then wait until FIFO is written to.
require 'nokogiri'; require 'json'; require 'zlib'; require 'openssl'; require 'psych'; require 'digest'
d = Nokogiri::XML('<r><i/><i/></r>')
puts "xml #{d.xpath('//i').size}, json #{JSON.generate([1])}, zlib #{Zlib.crc32('a')}, " \
     "sha256 #{OpenSSL::Digest::SHA256.hexdigest('a')[0, 8]}, yaml #{Psych.dump(1).size}, md5 #{Digest::MD5.hexdigest('a')[0, 8]}"
$stdout.flush
if ARGV.size == 2 && ARGV[0] == '--pause'
  puts "paused #{Process.pid}"
  $stdout.flush
  File.read(ARGV[1])
end
