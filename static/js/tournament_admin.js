// The tournament admin's form: show only the chosen game's options. Without this script
// every game's options show, each group saying it is read only for its game.
(function () {
  "use strict";
  function showChosenGame() {
    var select = document.getElementById("id_game");
    if (!select) return;
    document.querySelectorAll("fieldset.game-options").forEach(function (group) {
      group.hidden = !group.classList.contains("game-options-" + select.value);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("id_game");
    if (!select) return;
    select.addEventListener("change", showChosenGame);
    showChosenGame();
  });
})();
