void later();
