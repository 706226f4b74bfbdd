// The rooms and bookings the tools work on (the service's in-memory state).
export const rooms = new Map([
  ['oslo', { id: 'oslo', seats: 8, floor: 3 }],
  ['lima', { id: 'lima', seats: 4, floor: 3 }],
]);
export const bookings = new Map([
  ['bk-501', { id: 'bk-501', room: 'oslo', day: '2026-12-01', slot: 'morning', owner: 'finance' }],
]);
export const CALENDAR_URL = 'https://svc-calendar:Ky8-Wq3z-Tm5p@calendar.corp.internal:8443/v2';
