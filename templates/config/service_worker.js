{% load static %}// The desk's service worker, served at /sw.js so that it controls every page of the app. Its work
// is in static/js/desk_sw.js; this file names the Workbox runtime files vendored in
// static/vendor/ (README: "Working offline") and the assets a tablet keeps, by their served
// names, so a new version of any of them is a new worker.
importScripts(
  "{% static 'vendor/workbox-7.4.1/workbox-core.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-routing.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-strategies.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-expiration.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-background-sync.prod.js' %}",
);
self.DESK_ASSETS = [{% for asset in assets %}
  "{{ asset|escapejs }}",{% endfor %}
];
importScripts("{% static 'js/desk_sw.js' %}");
