-- The SQL of src/billing/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- BillingRepository.settings
SELECT reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel" FROM billing_settings WHERE environment_id = $1;

-- BillingRepository.lockSettings
INSERT INTO billing_settings (environment_id) VALUES ($1) ON CONFLICT DO NOTHING;

-- BillingRepository.lockSettings
SELECT reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel" FROM billing_settings WHERE environment_id = $1 FOR UPDATE;

-- BillingRepository.saveSettings
INSERT INTO billing_settings AS b (environment_id, reminder_before_due_days, reminder_after_due_days, sms_enabled,
                                    dunning_after_days_overdue, dunning_action, portal_allow_cancel, updated_at)
      VALUES ($1, $2::int[], $3::int[], $4,
              $5::int, $6, $7, $8)
      ON CONFLICT (environment_id) DO UPDATE SET
        reminder_before_due_days = excluded.reminder_before_due_days,
        reminder_after_due_days = excluded.reminder_after_due_days, sms_enabled = excluded.sms_enabled,
        dunning_after_days_overdue = excluded.dunning_after_days_overdue, dunning_action = excluded.dunning_action,
        portal_allow_cancel = excluded.portal_allow_cancel, updated_at = excluded.updated_at
      RETURNING reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel";
