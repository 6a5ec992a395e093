# perl-xs.pl [--pause FIFO]: perl with XS modules from Debian (DynaLoader
# opens each .so): XML::LibXML, DBD::SQLite, JSON::XS, Digest::MD5, POSIX.
# With --pause: `paused PID`, then wait until FIFO is written to.
use strict; use warnings;
use XML::LibXML; use DBI; use JSON::XS; use Digest::MD5 qw(md5_hex); use POSIX ();
$| = 1;
my $doc = XML::LibXML->load_xml(string => '<r><i/><i/></r>');
my $db = DBI->connect('dbi:SQLite:dbname=:memory:', '', '', {RaiseError => 1});
$db->do('create table t(x)'); $db->do('insert into t values (42)');
my ($x) = $db->selectrow_array('select x from t');
print 'xml ', scalar(my @i = $doc->findnodes('//i')), ", sqlite $x, json ", encode_json([1, 2]), ', md5 ', md5_hex('a'),
      ', floor ', POSIX::floor(2.5), "\n";
if (@ARGV == 2 && $ARGV[0] eq '--pause') { print "paused $$\n"; open my $f, '<', $ARGV[1] or die; <$f>; }
