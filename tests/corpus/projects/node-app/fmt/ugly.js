const   x = {a:1,b:2,
  c:3}
function   f( a,b ){return a+b}
module.exports={x,f}
