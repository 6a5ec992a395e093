-- lua-modules.lua [--pause FIFO]: lua 5.4 with C modules (require dlopens
-- each): lpeg, cjson. With --pause: `paused PID`, then wait until FIFO is
-- written to.
local lpeg = require 'lpeg'
local cjson = require 'cjson'
print('lpeg ' .. tostring(lpeg.match(lpeg.R('az') ^ 1, 'abc1')) .. ', json ' .. cjson.encode({1, 2}))
io.stdout:flush()
if arg[1] == '--pause' then
  print('paused ' .. io.open('/proc/self/stat'):read('l'):match('^(%d+)'))
  io.stdout:flush()
  io.open(arg[2]):read('a')
end
