// The little the site's pages need from JavaScript; without it they still work: the
// header shows its whole menu and the language menu has a "Go" button.
(function () {
  "use strict";

  // Narrow screens: the menu folds behind a button (see .has-menu-button in site.css).
  const header = document.querySelector(".site-header");
  const button = header && header.querySelector(".menu-button");
  const menu = document.getElementById("site-menu");
  if (header && button && menu) {
    const setOpen = (open) => {
      menu.classList.toggle("open", open);
      button.setAttribute("aria-expanded", open ? "true" : "false");
    };
    header.classList.add("has-menu-button");
    button.hidden = false;
    button.addEventListener("click", () => setOpen(!menu.classList.contains("open")));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && menu.classList.contains("open")) {
        setOpen(false);
        button.focus();
      }
    });
  }

  // A phone shows the text first: the rules' contents start folded there.
  if (window.matchMedia("(max-width: 47.99rem)").matches) {
    document.querySelectorAll(".toc details[open]").forEach((details) => {
      details.open = false;
    });
  }

  // The language menu applies a choice at once.
  const language = document.getElementById("language");
  if (language && language.form) {
    language.addEventListener("change", () => language.form.submit());
  }

  // The profile offers this device's time zone when the form holds another one.
  const zone = document.getElementById("id_time_zone");
  const useDeviceZone = document.querySelector(".use-device-zone");
  const deviceZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone && useDeviceZone && deviceZone && zone.value !== deviceZone &&
      Array.from(zone.options).some((option) => option.value === deviceZone)) {
    useDeviceZone.textContent = useDeviceZone.dataset.label.replace("{zone}", deviceZone);
    useDeviceZone.parentElement.hidden = false;
    useDeviceZone.addEventListener("click", () => {
      zone.value = deviceZone;
      useDeviceZone.parentElement.hidden = true;
    });
  }
})();
