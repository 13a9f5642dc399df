// The tournament's add and change forms in the admin: only the fields of the chosen
// format are shown (rounds for a Swiss and a duplicate event; duration and rating range
// for an arena; players through for a knockout; boards, movement, bot-filled seats and
// "every board starts from 0:0:0" for a duplicate event, whose standings go by boards
// and not by placement points).
(function () {
  "use strict";
  var ONLY = {
    rounds: ["swiss", "duplicate"],
    duration_minutes: ["arena"],
    arena_range: ["arena"],
    arena_widen: ["arena"],
    advance: ["knockout"],
    boards: ["duplicate"],
    movement: ["duplicate"],
    duplicate_bots: ["duplicate"],
    boards_from_zero: ["duplicate"],
    placement_points: ["swiss", "arena", "knockout"],
  };
  function row(name) {
    var field = document.getElementById("id_" + name);
    return field ? field.closest(".form-row") : document.querySelector(".form-row.field-" + name);
  }
  function apply(format) {
    Object.keys(ONLY).forEach(function (name) {
      var r = row(name);
      if (r) r.hidden = ONLY[name].indexOf(format) < 0;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("id_format");
    if (!select) return; // the rules are locked: nothing to choose
    apply(select.value);
    select.addEventListener("change", function () { apply(select.value); });
  });
})();
